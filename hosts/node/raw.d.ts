// Types of 'qrglue/raw': the same API as 'qrglue'.
export * from './index.js';
