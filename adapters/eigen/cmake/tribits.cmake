# DapetraEigen in a TriBITS project (read from CMakeLists.txt there): header-only.
tribits_subpackage(Eigen)
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/tribits/DapetraSubpackage.cmake)
dapetra_tribits_library(eigen INCLUDE_DIR ${CMAKE_CURRENT_LIST_DIR}/../include HEADERS_SUBDIR dapetra/eigen)
dapetra_tribits_tests(eigen)
tribits_subpackage_postprocess()
