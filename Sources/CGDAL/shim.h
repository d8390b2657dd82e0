// GDAL/OGR's C API (Debian 12: libgdal-dev 3.6): datasets and layers, the Arrow C stream of a layer
// (ogr_recordbatch.h through ogr_api.h), coordinate systems (OSR) and the error handler stack.
#include <gdal.h>
#include <ogr_api.h>
#include <ogr_recordbatch.h>
#include <ogr_srs_api.h>
#include <cpl_error.h>
#include <cpl_conv.h>
#include <cpl_string.h>
#include <cpl_vsi.h>
#include <gdal_utils.h>
