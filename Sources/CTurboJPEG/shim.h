// libjpeg-turbo's TurboJPEG API: its header imports as it is, no wrapper needed.
#include <turbojpeg.h>
