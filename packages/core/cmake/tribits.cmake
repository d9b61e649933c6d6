# DapetraCore in a TriBITS project (read from CMakeLists.txt there).
tribits_subpackage(Core)
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/DapetraVersion.cmake)
configure_file(${CMAKE_CURRENT_LIST_DIR}/../include/dapetra/version.hpp.in
               ${CMAKE_CURRENT_BINARY_DIR}/include/dapetra/version.hpp @ONLY)
tribits_include_directories(${CMAKE_CURRENT_LIST_DIR}/../include ${CMAKE_CURRENT_BINARY_DIR}/include)
file(GLOB dapetra_core_headers ${CMAKE_CURRENT_LIST_DIR}/../include/dapetra/*.hpp)
tribits_add_library(dapetra_core
  HEADERS ${dapetra_core_headers} ${CMAKE_CURRENT_BINARY_DIR}/include/dapetra/version.hpp
  HEADERS_INSTALL_SUBDIR dapetra
  SOURCES src/axis.cpp src/dim.cpp src/dim_math.cpp src/distarray.cpp src/error.cpp src/index_fingerprint.cpp src/inspect.cpp
          src/json.cpp src/layout.cpp src/pack.cpp src/process_grid.cpp src/validate.cpp
  ADDED_LIB_TARGET_NAME_OUT core_target)
# The name TriBITS gave the target (with the project's library-name prefix),
# and C++17 as a usage requirement: TriBITS' default standard is older.
target_compile_features(${core_target} PUBLIC cxx_std_17)
include(${CMAKE_CURRENT_LIST_DIR}/fingerprint_avx2.cmake)
dapetra_fingerprint_avx2(${core_target})
tribits_add_executable(dapetra-inspect NOEXEPREFIX NOEXESUFFIX SOURCES tools/dapetra_inspect.cpp INSTALLABLE)
tribits_add_test(dapetra-inspect NOEXEPREFIX NOEXESUFFIX NAME spec_example_2_10 NUM_MPI_PROCS 1
  ARGS ${CMAKE_CURRENT_LIST_DIR}/../../../examples/layouts/spec_2_10_blockcyclic_blockcyclic_2x2.json
  PASS_REGULAR_EXPRESSION "layout: valid")
tribits_subpackage_postprocess()
