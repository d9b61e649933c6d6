# DapetraPetsc in a TriBITS project (read from CMakeLists.txt there).
tribits_subpackage(Petsc)
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/tribits/DapetraSubpackage.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/sources.cmake)
dapetra_tribits_library(petsc INCLUDE_DIR ${CMAKE_CURRENT_LIST_DIR}/../include HEADERS_SUBDIR dapetra/petsc
  SOURCES ${DAPETRA_PETSC_SOURCES})
dapetra_tribits_tests(petsc)
tribits_subpackage_postprocess()
