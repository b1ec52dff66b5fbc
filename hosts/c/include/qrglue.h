#ifndef QRGLUE_H
#define QRGLUE_H
#include <stdint.h>
#include <stddef.h>
#define QRGLUE_CAPI_VERSION 1
#define QRGLUE_STATUS_OK 0
#define QRGLUE_STATUS_PANIC 5
typedef struct QrglueResult { uint32_t status; uint8_t *payload; size_t payload_len; } QrglueResult;
typedef struct QrglueOptions { uint32_t ec_level; uint32_t min_size; uint32_t quiet_zone; uint32_t has_scale; uint32_t scale; uint32_t dark; uint32_t light; uint32_t symbol_flags; uint32_t version; uint32_t min_version; uint32_t mask; } QrglueOptions;
typedef struct QrglueSvgOptions { uint32_t flags; const uint8_t *title; size_t title_len; const uint8_t *class_name; size_t class_len; } QrglueSvgOptions;
uint32_t qrglue_capi_version(void);
QrglueResult qrglue_png(const uint8_t *text, size_t len, const QrglueOptions *options);
QrglueResult qrglue_png_bytes(const uint8_t *data, size_t len, const QrglueOptions *options);
QrglueResult qrglue_svg(const uint8_t *text, size_t len, const QrglueOptions *options, const QrglueSvgOptions *svg);
QrglueResult qrglue_svg_bytes(const uint8_t *data, size_t len, const QrglueOptions *options, const QrglueSvgOptions *svg);
QrglueResult qrglue_matrix(const uint8_t *text, size_t len, const QrglueOptions *options);
QrglueResult qrglue_matrix_bytes(const uint8_t *data, size_t len, const QrglueOptions *options);
QrglueResult qrglue_text(const uint8_t *text, size_t len, const QrglueOptions *options, uint32_t style);
QrglueResult qrglue_text_bytes(const uint8_t *data, size_t len, const QrglueOptions *options, uint32_t style);
QrglueResult qrglue_check(const uint8_t *text, size_t len, const QrglueOptions *options);
QrglueResult qrglue_panic_probe(void);
void qrglue_result_free(QrglueResult result);
#endif
