// GDAL/OGR's C API (Debian 12: libgdal-dev 3.6), loaded on first use with dlopen instead of linked.
//
// Why: libgdal pulls in about 110 shared libraries; linked into clustermap, loading them cost every
// launch about 35 MB of resident memory and 0.35 s on the 2-core test machine, also for the many
// runs that never open a GDAL file. So the headers give the types and constants, and the
// functions are reached through `cm_gdal()`, a table of pointers filled from libgdal.so.32 the
// first time it is asked for (Swift calls `gdal.GDALOpenEx!(…)`, see GeoData's GDALLibrary.swift).
#ifndef CM_GDAL_H
#define CM_GDAL_H
#include <gdal/gdal.h>
#include <gdal/ogr_api.h>
#include <gdal/ogr_recordbatch.h>
#include <gdal/ogr_srs_api.h>
#include <gdal/cpl_error.h>
#include <gdal/cpl_conv.h>
#include <gdal/cpl_string.h>
#include <gdal/gdal_utils.h>

/// The GDAL functions ClusterMap uses (each NULL when libgdal could not be loaded).
struct CMGDALFunctions {
    __typeof__(CPLErrorReset) *CPLErrorReset;
    __typeof__(CPLGetErrorHandlerUserData) *CPLGetErrorHandlerUserData;
    __typeof__(CPLGetLastErrorMsg) *CPLGetLastErrorMsg;
    __typeof__(CPLGetLastErrorType) *CPLGetLastErrorType;
    __typeof__(CPLPopErrorHandler) *CPLPopErrorHandler;
    __typeof__(CPLPushErrorHandlerEx) *CPLPushErrorHandlerEx;
    __typeof__(CPLSetConfigOption) *CPLSetConfigOption;
    __typeof__(CSLAddString) *CSLAddString;
    __typeof__(CSLDestroy) *CSLDestroy;
    __typeof__(GDALAllRegister) *GDALAllRegister;
    __typeof__(GDALClose) *GDALClose;
    __typeof__(GDALDatasetGetLayer) *GDALDatasetGetLayer;
    __typeof__(GDALDatasetGetLayerCount) *GDALDatasetGetLayerCount;
    __typeof__(GDALOpenEx) *GDALOpenEx;
    __typeof__(GDALVectorTranslate) *GDALVectorTranslate;
    __typeof__(GDALVectorTranslateOptionsFree) *GDALVectorTranslateOptionsFree;
    __typeof__(GDALVectorTranslateOptionsNew) *GDALVectorTranslateOptionsNew;
    __typeof__(OCTDestroyCoordinateTransformation) *OCTDestroyCoordinateTransformation;
    __typeof__(OCTNewCoordinateTransformation) *OCTNewCoordinateTransformation;
    __typeof__(OCTTransformEx) *OCTTransformEx;
    __typeof__(OGR_FD_GetFieldCount) *OGR_FD_GetFieldCount;
    __typeof__(OGR_FD_GetFieldDefn) *OGR_FD_GetFieldDefn;
    __typeof__(OGR_FD_GetFieldIndex) *OGR_FD_GetFieldIndex;
    __typeof__(OGR_F_Destroy) *OGR_F_Destroy;
    __typeof__(OGR_F_GetFieldAsDateTimeEx) *OGR_F_GetFieldAsDateTimeEx;
    __typeof__(OGR_F_GetFieldAsDouble) *OGR_F_GetFieldAsDouble;
    __typeof__(OGR_F_GetFieldAsDoubleList) *OGR_F_GetFieldAsDoubleList;
    __typeof__(OGR_F_GetFieldAsInteger64) *OGR_F_GetFieldAsInteger64;
    __typeof__(OGR_F_GetFieldAsInteger64List) *OGR_F_GetFieldAsInteger64List;
    __typeof__(OGR_F_GetFieldAsIntegerList) *OGR_F_GetFieldAsIntegerList;
    __typeof__(OGR_F_GetFieldAsString) *OGR_F_GetFieldAsString;
    __typeof__(OGR_F_GetFieldAsStringList) *OGR_F_GetFieldAsStringList;
    __typeof__(OGR_F_GetFieldDefnRef) *OGR_F_GetFieldDefnRef;
    __typeof__(OGR_F_GetGeometryRef) *OGR_F_GetGeometryRef;
    __typeof__(OGR_F_IsFieldSetAndNotNull) *OGR_F_IsFieldSetAndNotNull;
    __typeof__(OGR_Fld_GetNameRef) *OGR_Fld_GetNameRef;
    __typeof__(OGR_Fld_GetSubType) *OGR_Fld_GetSubType;
    __typeof__(OGR_Fld_GetType) *OGR_Fld_GetType;
    __typeof__(OGR_G_Centroid) *OGR_G_Centroid;
    __typeof__(OGR_G_CreateFromWkb) *OGR_G_CreateFromWkb;
    __typeof__(OGR_G_CreateGeometry) *OGR_G_CreateGeometry;
    __typeof__(OGR_G_CreateGeometryFromJson) *OGR_G_CreateGeometryFromJson;
    __typeof__(OGR_G_DestroyGeometry) *OGR_G_DestroyGeometry;
    __typeof__(OGR_G_ExportToIsoWkb) *OGR_G_ExportToIsoWkb;
    __typeof__(OGR_G_GetLinearGeometry) *OGR_G_GetLinearGeometry;
    __typeof__(OGR_G_GetX) *OGR_G_GetX;
    __typeof__(OGR_G_GetY) *OGR_G_GetY;
    __typeof__(OGR_G_HasCurveGeometry) *OGR_G_HasCurveGeometry;
    __typeof__(OGR_G_IsEmpty) *OGR_G_IsEmpty;
    __typeof__(OGR_G_PointOnSurface) *OGR_G_PointOnSurface;
    __typeof__(OGR_G_WkbSize) *OGR_G_WkbSize;
    __typeof__(OGR_L_GetArrowStream) *OGR_L_GetArrowStream;
    __typeof__(OGR_L_GetFIDColumn) *OGR_L_GetFIDColumn;
    __typeof__(OGR_L_GetFeatureCount) *OGR_L_GetFeatureCount;
    __typeof__(OGR_L_GetGeometryColumn) *OGR_L_GetGeometryColumn;
    __typeof__(OGR_L_GetLayerDefn) *OGR_L_GetLayerDefn;
    __typeof__(OGR_L_GetName) *OGR_L_GetName;
    __typeof__(OGR_L_GetNextFeature) *OGR_L_GetNextFeature;
    __typeof__(OGR_L_GetSpatialRef) *OGR_L_GetSpatialRef;
    __typeof__(OGR_L_ResetReading) *OGR_L_ResetReading;
    __typeof__(OGR_L_TestCapability) *OGR_L_TestCapability;
    __typeof__(OSRClone) *OSRClone;
    __typeof__(OSRDestroySpatialReference) *OSRDestroySpatialReference;
    __typeof__(OSRGetAuthorityCode) *OSRGetAuthorityCode;
    __typeof__(OSRGetAuthorityName) *OSRGetAuthorityName;
    __typeof__(OSRGetName) *OSRGetName;
    __typeof__(OSRIsLocal) *OSRIsLocal;
    __typeof__(OSRIsSame) *OSRIsSame;
    __typeof__(OSRNewSpatialReference) *OSRNewSpatialReference;
    __typeof__(OSRSetAxisMappingStrategy) *OSRSetAxisMappingStrategy;
    __typeof__(OSRSetWellKnownGeogCS) *OSRSetWellKnownGeogCS;
};

/// Loads libgdal (once, thread-safe) and returns its function table; `loaded` is 0 when the
/// library or one of the functions is missing (then every pointer may be NULL).
const struct CMGDALFunctions *cm_gdal(int *loaded);

#endif
