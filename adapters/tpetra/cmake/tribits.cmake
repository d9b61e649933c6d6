# DapetraTpetra in a TriBITS project (read from CMakeLists.txt there). Tpetra's
# include paths and libraries come from the Tpetra package (inside a Trilinos
# source tree) or the Tpetra TPL (an installed Trilinos).
tribits_subpackage(Tpetra)
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/tribits/DapetraSubpackage.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/sources.cmake)
dapetra_tribits_library(tpetra INCLUDE_DIR ${CMAKE_CURRENT_LIST_DIR}/../include HEADERS_SUBDIR dapetra/tpetra
  SOURCES ${DAPETRA_TPETRA_SOURCES})
get_target_property(tpetra_target Dapetra::tpetra ALIASED_TARGET)
target_include_directories(${tpetra_target} PRIVATE ${DAPETRA_MPI_INTERNAL_DIR})
dapetra_tribits_tests(tpetra)
tribits_subpackage_postprocess()
