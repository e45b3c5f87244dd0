/* Tesseract's C API (capi.h), loaded only when a `text` rule needs OCR: libtesseract brings
 * about fifty libraries (Leptonica, libarchive, libcurl, GnuTLS, ICU, the image codecs) whose
 * loading and relocation every command would pay at start-up if it were linked.
 *
 * Each sg_tess function calls the capi.h function of the same name with `Tess` for `sg_tess_`.
 * The types and constants below are copied from capi.h and publictypes.h so that building needs
 * no Tesseract header; TextTests' loader test compiles against the real header and compares.
 * Call sg_tess_load first and only when it returned 0; before that nothing is resolved. */
#ifndef SG_TESSERACT_H
#define SG_TESSERACT_H

#include <stddef.h>

/* Opaque handles (C++ objects behind capi.h's typedefs). */
typedef struct SGTessBaseAPI SGTessBaseAPI;
typedef struct SGTessResultIterator SGTessResultIterator;
typedef struct SGTessPageIterator SGTessPageIterator;
typedef struct SGTessChoiceIterator SGTessChoiceIterator;

/* TessPageSegMode: only the members used. */
typedef enum {
    SG_PSM_SINGLE_BLOCK = 6,
    SG_PSM_SINGLE_LINE = 7,
    SG_PSM_SPARSE_TEXT = 11,
    SG_PSM_RAW_LINE = 13,
} SGTessPageSegMode;

/* TessPageIteratorLevel. */
typedef enum {
    SG_RIL_BLOCK = 0,
    SG_RIL_PARA = 1,
    SG_RIL_TEXTLINE = 2,
    SG_RIL_WORD = 3,
    SG_RIL_SYMBOL = 4,
} SGTessPageIteratorLevel;

/* TessOcrEngineMode: only the LSTM engine, the one the packaged "fast" models hold. */
typedef enum {
    SG_OEM_LSTM_ONLY = 1,
} SGTessOcrEngineMode;

/* Sets OMP_THREAD_LIMIT=1 unless the environment sets it (libgomp reads it once, when it is
 * loaded: Tesseract's OpenMP threads made one recognition take 3 to 12 s on two cores where
 * one thread took 3), then loads libtesseract.so.5 and resolves every function below, once per
 * process (later calls give the first outcome). 0 when loaded; -1 with a one-line reason in
 * `error` otherwise. Thread-safe. */
int sg_tess_load(char *error, size_t size);

const char *sg_tess_version(void);
void sg_tess_delete_text(const char *text);

SGTessBaseAPI *sg_tess_base_api_create(void);
void sg_tess_base_api_delete(SGTessBaseAPI *api);
/* TessBaseAPIInit4 without config files: `names` and `values` set `count` init-time variables. */
int sg_tess_base_api_init4(SGTessBaseAPI *api, const char *datapath, const char *language, SGTessOcrEngineMode mode,
                           char **names, char **values, size_t count);
int sg_tess_base_api_set_variable(SGTessBaseAPI *api, const char *name, const char *value);
void sg_tess_base_api_set_page_seg_mode(SGTessBaseAPI *api, SGTessPageSegMode mode);
/* Hands Tesseract the image at data (length bytes: height rows of width * bytes_per_pixel bytes,
 * bytes_per_line apart). 0, or -1, handing nothing over, when the rows do not lie in length. */
int sg_tess_base_api_set_image(SGTessBaseAPI *api, const unsigned char *data, size_t length, int width, int height,
                               int bytes_per_pixel, int bytes_per_line);
void sg_tess_base_api_set_source_resolution(SGTessBaseAPI *api, int ppi);
int sg_tess_base_api_recognize(SGTessBaseAPI *api);
void sg_tess_base_api_clear(SGTessBaseAPI *api);
void sg_tess_base_api_end(SGTessBaseAPI *api);
SGTessResultIterator *sg_tess_base_api_get_iterator(SGTessBaseAPI *api);

void sg_tess_result_iterator_delete(SGTessResultIterator *iterator);
int sg_tess_result_iterator_next(SGTessResultIterator *iterator, SGTessPageIteratorLevel level);
char *sg_tess_result_iterator_get_utf8_text(const SGTessResultIterator *iterator, SGTessPageIteratorLevel level);
float sg_tess_result_iterator_confidence(const SGTessResultIterator *iterator, SGTessPageIteratorLevel level);
/* TessResultIteratorGetPageIteratorConst, then TessPageIteratorBoundingBox. */
int sg_tess_result_iterator_bounding_box(const SGTessResultIterator *iterator, SGTessPageIteratorLevel level,
                                         int *left, int *top, int *right, int *bottom);
/* TessResultIteratorGetPageIteratorConst, then TessPageIteratorIsAtBeginningOf. */
int sg_tess_result_iterator_is_at_beginning_of(const SGTessResultIterator *iterator, SGTessPageIteratorLevel level);

/* The recogniser's other readings of the symbol the iterator is at (with the variable
 * lstm_choice_mode set to 2, the LSTM's choices for it); NULL when it kept none. */
SGTessChoiceIterator *sg_tess_result_iterator_get_choice_iterator(const SGTessResultIterator *iterator);
void sg_tess_choice_iterator_delete(SGTessChoiceIterator *iterator);
int sg_tess_choice_iterator_next(SGTessChoiceIterator *iterator);
/* Owned by the iterator: not to be freed. */
const char *sg_tess_choice_iterator_get_utf8_text(const SGTessChoiceIterator *iterator);
float sg_tess_choice_iterator_confidence(const SGTessChoiceIterator *iterator);

#endif
