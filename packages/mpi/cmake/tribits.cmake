# DapetraMpi in a TriBITS project (read from CMakeLists.txt there).
tribits_subpackage(Mpi)
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/tribits/DapetraSubpackage.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/sources.cmake)
dapetra_tribits_library(mpi INCLUDE_DIR ${CMAKE_CURRENT_LIST_DIR}/../include HEADERS_SUBDIR dapetra/mpi
  SOURCES ${DAPETRA_MPI_SOURCES})
get_target_property(mpi_target Dapetra::mpi ALIASED_TARGET)
target_include_directories(${mpi_target} PRIVATE ${DAPETRA_CORE_INTERNAL_DIR})
set(DAPETRA_MPI_INTERNAL_DIR ${CMAKE_CURRENT_LIST_DIR}/../internal CACHE INTERNAL "the mpi layer's adapter-facing headers")
target_include_directories(${mpi_target} PRIVATE ${DAPETRA_MPI_INTERNAL_DIR})
dapetra_tribits_tests(mpi)
tribits_subpackage_postprocess()
