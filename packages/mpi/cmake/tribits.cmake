# DapetraMpi in a TriBITS project (read from CMakeLists.txt there).
tribits_subpackage(Mpi)
tribits_include_directories(${CMAKE_CURRENT_LIST_DIR}/../include)
file(GLOB dapetra_mpi_headers ${CMAKE_CURRENT_LIST_DIR}/../include/dapetra/mpi/*.hpp)
tribits_add_library(dapetra_mpi
  HEADERS ${dapetra_mpi_headers}
  HEADERS_INSTALL_SUBDIR dapetra/mpi
  SOURCES src/checked.cpp src/collectives.cpp src/comm.cpp src/exchange.cpp src/halo.cpp src/layout.cpp src/ownership.cpp
          src/redistribute.cpp
  ADDED_LIB_TARGET_NAME_OUT mpi_target)
target_compile_features(${mpi_target} PUBLIC cxx_std_17)
tribits_subpackage_postprocess()
