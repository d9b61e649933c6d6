# DapetraHdf5 in a TriBITS project (read from CMakeLists.txt there).
tribits_subpackage(Hdf5)
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/tribits/DapetraSubpackage.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/sources.cmake)
dapetra_tribits_library(hdf5 INCLUDE_DIR ${CMAKE_CURRENT_LIST_DIR}/../include HEADERS_SUBDIR dapetra/hdf5
  SOURCES ${DAPETRA_HDF5_SOURCES})
dapetra_tribits_tests(hdf5)
tribits_subpackage_postprocess()
