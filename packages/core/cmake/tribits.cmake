# DapetraCore in a TriBITS project (read from CMakeLists.txt there).
tribits_subpackage(Core)
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/tribits/DapetraSubpackage.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/sources.cmake)
include(${DAPETRA_ROOT}/cmake/DapetraVersion.cmake)
configure_file(${CMAKE_CURRENT_LIST_DIR}/../include/dapetra/version.hpp.in
               ${CMAKE_CURRENT_BINARY_DIR}/include/dapetra/version.hpp @ONLY)
tribits_include_directories(${CMAKE_CURRENT_BINARY_DIR}/include)
dapetra_tribits_library(core INCLUDE_DIR ${CMAKE_CURRENT_LIST_DIR}/../include HEADERS_SUBDIR dapetra
  EXTRA_HEADERS ${CMAKE_CURRENT_BINARY_DIR}/include/dapetra/version.hpp
  SOURCES ${DAPETRA_CORE_SOURCES})
include(${CMAKE_CURRENT_LIST_DIR}/fingerprint_avx2.cmake)
get_target_property(core_target Dapetra::core ALIASED_TARGET)
dapetra_fingerprint_avx2(${core_target})
set(DAPETRA_CORE_INTERNAL_DIR ${CMAKE_CURRENT_LIST_DIR}/../internal CACHE INTERNAL "the core's internal headers")
target_include_directories(${core_target} PRIVATE ${DAPETRA_CORE_INTERNAL_DIR})
tribits_add_executable(dapetra-inspect NOEXEPREFIX NOEXESUFFIX SOURCES tools/dapetra_inspect.cpp INSTALLABLE)
dapetra_tribits_tests(core)
tribits_subpackage_postprocess()
