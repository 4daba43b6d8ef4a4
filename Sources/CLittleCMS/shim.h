#include <lcms2.h>

// LittleCMS's pixel-format macros are built from shifts, which Swift does not
// import: the ones iconbadge uses, as constants.
static const cmsUInt32Number IB_TYPE_RGB_8 = TYPE_RGB_8;
static const cmsUInt32Number IB_TYPE_BGRA_8_PREMUL = TYPE_BGRA_8_PREMUL;
static const cmsUInt32Number IB_TYPE_ARGB_8_PREMUL = TYPE_ARGB_8_PREMUL;
