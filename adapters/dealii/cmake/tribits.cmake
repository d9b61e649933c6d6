# DapetraDealii in a TriBITS project (read from CMakeLists.txt there).
tribits_subpackage(Dealii)
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/tribits/DapetraSubpackage.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/sources.cmake)
set(sources ${DAPETRA_DEALII_SOURCES})
if(${PACKAGE_NAME}_ENABLE_DapetraTpetra)
  list(APPEND sources ${DAPETRA_DEALII_TPETRA_SOURCES})
endif()
dapetra_tribits_library(dealii INCLUDE_DIR ${CMAKE_CURRENT_LIST_DIR}/../include HEADERS_SUBDIR dapetra/dealii
  SOURCES ${sources})
dapetra_tribits_tests(dealii)
tribits_subpackage_postprocess()
