// Types of 'qrglue/bindgen': the same API as 'qrglue'.
export * from './index.js';
