# DapetraDealii in a TriBITS project (read from CMakeLists.txt there).
tribits_subpackage(Dealii)
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/tribits/DapetraSubpackage.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/sources.cmake)
dapetra_tribits_library(dealii INCLUDE_DIR ${CMAKE_CURRENT_LIST_DIR}/../include HEADERS_SUBDIR dapetra/dealii
  SOURCES ${DAPETRA_DEALII_SOURCES})
dapetra_tribits_tests(dealii)
tribits_subpackage_postprocess()
