# DapetraMpi in a TriBITS project (read from CMakeLists.txt there).
tribits_subpackage(Mpi)
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/tribits/DapetraSubpackage.cmake)
dapetra_tribits_library(mpi INCLUDE_DIR ${CMAKE_CURRENT_LIST_DIR}/../include HEADERS_SUBDIR dapetra/mpi
  SOURCES src/checked.cpp src/collectives.cpp src/comm.cpp src/exchange.cpp src/halo.cpp src/layout.cpp src/ownership.cpp
          src/redistribute.cpp)
dapetra_tribits_tests(mpi)
tribits_subpackage_postprocess()
