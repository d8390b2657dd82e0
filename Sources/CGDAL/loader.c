#include "cgdal.h"
#include <dlfcn.h>
#include <pthread.h>

static struct CMGDALFunctions table;
static int complete = 0;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *lib = dlopen("libgdal.so.32", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libgdal.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    int all = 1;
#define CM_GDAL_LOAD(name) table.name = (__typeof__(name) *)dlsym(lib, #name); if (!table.name) all = 0;
    CM_GDAL_LOAD(CPLErrorReset)
    CM_GDAL_LOAD(CPLGetErrorHandlerUserData)
    CM_GDAL_LOAD(CPLGetLastErrorMsg)
    CM_GDAL_LOAD(CPLGetLastErrorType)
    CM_GDAL_LOAD(CPLPopErrorHandler)
    CM_GDAL_LOAD(CPLPushErrorHandlerEx)
    CM_GDAL_LOAD(CPLSetConfigOption)
    CM_GDAL_LOAD(CSLAddString)
    CM_GDAL_LOAD(CSLDestroy)
    CM_GDAL_LOAD(GDALAllRegister)
    CM_GDAL_LOAD(GDALClose)
    CM_GDAL_LOAD(GDALDatasetGetLayer)
    CM_GDAL_LOAD(GDALDatasetGetLayerCount)
    CM_GDAL_LOAD(GDALOpenEx)
    CM_GDAL_LOAD(GDALVectorTranslate)
    CM_GDAL_LOAD(GDALVectorTranslateOptionsFree)
    CM_GDAL_LOAD(GDALVectorTranslateOptionsNew)
    CM_GDAL_LOAD(OCTDestroyCoordinateTransformation)
    CM_GDAL_LOAD(OCTNewCoordinateTransformation)
    CM_GDAL_LOAD(OCTTransformEx)
    CM_GDAL_LOAD(OGR_FD_GetFieldCount)
    CM_GDAL_LOAD(OGR_FD_GetFieldDefn)
    CM_GDAL_LOAD(OGR_FD_GetFieldIndex)
    CM_GDAL_LOAD(OGR_F_Destroy)
    CM_GDAL_LOAD(OGR_F_GetFieldAsDateTimeEx)
    CM_GDAL_LOAD(OGR_F_GetFieldAsDouble)
    CM_GDAL_LOAD(OGR_F_GetFieldAsDoubleList)
    CM_GDAL_LOAD(OGR_F_GetFieldAsInteger64)
    CM_GDAL_LOAD(OGR_F_GetFieldAsInteger64List)
    CM_GDAL_LOAD(OGR_F_GetFieldAsIntegerList)
    CM_GDAL_LOAD(OGR_F_GetFieldAsString)
    CM_GDAL_LOAD(OGR_F_GetFieldAsStringList)
    CM_GDAL_LOAD(OGR_F_GetFieldDefnRef)
    CM_GDAL_LOAD(OGR_F_GetGeometryRef)
    CM_GDAL_LOAD(OGR_F_IsFieldSetAndNotNull)
    CM_GDAL_LOAD(OGR_Fld_GetNameRef)
    CM_GDAL_LOAD(OGR_Fld_GetSubType)
    CM_GDAL_LOAD(OGR_Fld_GetType)
    CM_GDAL_LOAD(OGR_G_Centroid)
    CM_GDAL_LOAD(OGR_G_CreateFromWkb)
    CM_GDAL_LOAD(OGR_G_CreateGeometry)
    CM_GDAL_LOAD(OGR_G_CreateGeometryFromJson)
    CM_GDAL_LOAD(OGR_G_DestroyGeometry)
    CM_GDAL_LOAD(OGR_G_ExportToIsoWkb)
    CM_GDAL_LOAD(OGR_G_GetLinearGeometry)
    CM_GDAL_LOAD(OGR_G_GetX)
    CM_GDAL_LOAD(OGR_G_GetY)
    CM_GDAL_LOAD(OGR_G_HasCurveGeometry)
    CM_GDAL_LOAD(OGR_G_IsEmpty)
    CM_GDAL_LOAD(OGR_G_PointOnSurface)
    CM_GDAL_LOAD(OGR_G_WkbSize)
    CM_GDAL_LOAD(OGR_L_GetArrowStream)
    CM_GDAL_LOAD(OGR_L_GetFIDColumn)
    CM_GDAL_LOAD(OGR_L_GetFeatureCount)
    CM_GDAL_LOAD(OGR_L_GetGeometryColumn)
    CM_GDAL_LOAD(OGR_L_GetLayerDefn)
    CM_GDAL_LOAD(OGR_L_GetName)
    CM_GDAL_LOAD(OGR_L_GetNextFeature)
    CM_GDAL_LOAD(OGR_L_GetSpatialRef)
    CM_GDAL_LOAD(OGR_L_ResetReading)
    CM_GDAL_LOAD(OGR_L_TestCapability)
    CM_GDAL_LOAD(OSRClone)
    CM_GDAL_LOAD(OSRDestroySpatialReference)
    CM_GDAL_LOAD(OSRGetAuthorityCode)
    CM_GDAL_LOAD(OSRGetAuthorityName)
    CM_GDAL_LOAD(OSRGetName)
    CM_GDAL_LOAD(OSRIsLocal)
    CM_GDAL_LOAD(OSRIsSame)
    CM_GDAL_LOAD(OSRNewSpatialReference)
    CM_GDAL_LOAD(OSRSetAxisMappingStrategy)
    CM_GDAL_LOAD(OSRSetWellKnownGeogCS)
#undef CM_GDAL_LOAD
    complete = all;
}

const struct CMGDALFunctions *cm_gdal(int *loaded) {
    pthread_once(&once, load);
    if (loaded) *loaded = complete;
    return &table;
}
