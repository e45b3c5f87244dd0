/* The prefixed entry points of sg_tesseract.h: each calls the resolved function of its name. */
#include "functions.h"

#define F sg_tess_functions

const char *sg_tess_version(void) { return F.TessVersion(); }
void sg_tess_delete_text(const char *text) { F.TessDeleteText(text); }

SGTessBaseAPI *sg_tess_base_api_create(void) { return F.TessBaseAPICreate(); }
void sg_tess_base_api_delete(SGTessBaseAPI *api) { F.TessBaseAPIDelete(api); }
int sg_tess_base_api_init4(SGTessBaseAPI *api, const char *datapath, const char *language, SGTessOcrEngineMode mode,
                           char **names, char **values, size_t count) {
    return F.TessBaseAPIInit4(api, datapath, language, mode, NULL, 0, names, values, count, 0);
}
int sg_tess_base_api_set_variable(SGTessBaseAPI *api, const char *name, const char *value) {
    return F.TessBaseAPISetVariable(api, name, value);
}
void sg_tess_base_api_set_page_seg_mode(SGTessBaseAPI *api, SGTessPageSegMode mode) {
    F.TessBaseAPISetPageSegMode(api, mode);
}
int sg_tess_base_api_set_image(SGTessBaseAPI *api, const unsigned char *data, size_t length, int width, int height,
                               int bytes_per_pixel, int bytes_per_line) {
    /* Tesseract copies height rows of width * bytes_per_pixel bytes, bytes_per_line apart: they
     * must lie in the length bytes given, or it reads past them. */
    size_t row = 0, last = 0, end = 0;
    if (data == NULL || width <= 0 || height <= 0 || bytes_per_pixel <= 0 || bytes_per_line <= 0 ||
        __builtin_mul_overflow((size_t)width, (size_t)bytes_per_pixel, &row) || (size_t)bytes_per_line < row ||
        __builtin_mul_overflow((size_t)(height - 1), (size_t)bytes_per_line, &last) ||
        __builtin_add_overflow(last, row, &end) || end > length) {
        return -1;
    }
    F.TessBaseAPISetImage(api, data, width, height, bytes_per_pixel, bytes_per_line);
    return 0;
}
void sg_tess_base_api_set_source_resolution(SGTessBaseAPI *api, int ppi) { F.TessBaseAPISetSourceResolution(api, ppi); }
/* No progress monitor: each call is one line of text, and the caller checks its own deadline between lines. */
int sg_tess_base_api_recognize(SGTessBaseAPI *api) { return F.TessBaseAPIRecognize(api, NULL); }
void sg_tess_base_api_clear(SGTessBaseAPI *api) { F.TessBaseAPIClear(api); }
void sg_tess_base_api_end(SGTessBaseAPI *api) { F.TessBaseAPIEnd(api); }
SGTessResultIterator *sg_tess_base_api_get_iterator(SGTessBaseAPI *api) { return F.TessBaseAPIGetIterator(api); }

void sg_tess_result_iterator_delete(SGTessResultIterator *iterator) { F.TessResultIteratorDelete(iterator); }
int sg_tess_result_iterator_next(SGTessResultIterator *iterator, SGTessPageIteratorLevel level) {
    return F.TessResultIteratorNext(iterator, level);
}
char *sg_tess_result_iterator_get_utf8_text(const SGTessResultIterator *iterator, SGTessPageIteratorLevel level) {
    return F.TessResultIteratorGetUTF8Text(iterator, level);
}
float sg_tess_result_iterator_confidence(const SGTessResultIterator *iterator, SGTessPageIteratorLevel level) {
    return F.TessResultIteratorConfidence(iterator, level);
}
int sg_tess_result_iterator_bounding_box(const SGTessResultIterator *iterator, SGTessPageIteratorLevel level,
                                         int *left, int *top, int *right, int *bottom) {
    return F.TessPageIteratorBoundingBox(F.TessResultIteratorGetPageIteratorConst(iterator), level,
                                         left, top, right, bottom);
}
int sg_tess_result_iterator_is_at_beginning_of(const SGTessResultIterator *iterator, SGTessPageIteratorLevel level) {
    return F.TessPageIteratorIsAtBeginningOf(F.TessResultIteratorGetPageIteratorConst(iterator), level);
}

SGTessChoiceIterator *sg_tess_result_iterator_get_choice_iterator(const SGTessResultIterator *iterator) {
    return F.TessResultIteratorGetChoiceIterator(iterator);
}
void sg_tess_choice_iterator_delete(SGTessChoiceIterator *iterator) { F.TessChoiceIteratorDelete(iterator); }
int sg_tess_choice_iterator_next(SGTessChoiceIterator *iterator) { return F.TessChoiceIteratorNext(iterator); }
const char *sg_tess_choice_iterator_get_utf8_text(const SGTessChoiceIterator *iterator) {
    return F.TessChoiceIteratorGetUTF8Text(iterator);
}
float sg_tess_choice_iterator_confidence(const SGTessChoiceIterator *iterator) {
    return F.TessChoiceIteratorConfidence(iterator);
}
