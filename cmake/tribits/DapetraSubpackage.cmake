# What every Dapetra subpackage does in a TriBITS project (read by each
# <subpackage>/cmake/tribits.cmake; plain-CMake builds never read this file).
#
#   dapetra_tribits_library(<name> INCLUDE_DIR <dir> HEADERS_SUBDIR <subdir>
#                           [SOURCES <src>...] [EXTRA_HEADERS <hpp>...])
#     the library Dapetra::<name> (dapetra_<name>, or a header-only library
#     without SOURCES), its headers installed under include/<subdir>, C++17
#     as a usage requirement (TriBITS' default standard is older), position-
#     independent code (the Python module links it into a shared object). The alias
#     names the target TriBITS created, whatever the project's library-name
#     prefix, so tests and the install's Dapetra::<name> never spell it.
#   dapetra_tribits_tests(<area>...)
#     tests/<area>/tests.cmake through TriBITS' test verbs, when the
#     subpackage's tests are enabled.
get_filename_component(DAPETRA_ROOT "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
include(${DAPETRA_ROOT}/cmake/DapetraWarnings.cmake)

function(dapetra_tribits_library name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "INCLUDE_DIR;HEADERS_SUBDIR" "SOURCES;EXTRA_HEADERS")
  tribits_include_directories(${arg_INCLUDE_DIR})
  file(GLOB headers ${arg_INCLUDE_DIR}/${arg_HEADERS_SUBDIR}/*.hpp)
  if(arg_SOURCES)
    tribits_add_library(dapetra_${name} HEADERS ${headers} ${arg_EXTRA_HEADERS} HEADERS_INSTALL_SUBDIR ${arg_HEADERS_SUBDIR}
                        SOURCES ${arg_SOURCES} ADDED_LIB_TARGET_NAME_OUT target)
    target_compile_features(${target} PUBLIC cxx_std_17)
    # Static or shared, the Python module links them into a shared object.
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  else()
    dapetra_tribits_header_only_library(${name} "${arg_INCLUDE_DIR}" "${headers}" ${arg_HEADERS_SUBDIR} target)
  endif()
  add_library(Dapetra::${name} ALIAS ${target})
  set_property(GLOBAL APPEND PROPERTY DAPETRA_TRIBITS_LIBRARIES "${name}=${PACKAGE_NAME}::${target}")
endfunction()

# TriBITS has HEADERONLY libraries since 2025-02; the TriBITS of the
# Trilinos 13-16 era has none, so there the INTERFACE library is made here
# and joins the subpackage's export set (what TriBITS installs and exports).
function(dapetra_tribits_header_only_library name include_dir headers subdir target_out)
  set(add_library_file "${${PROJECT_NAME}_TRIBITS_DIR}/core/package_arch/TribitsAddLibrary.cmake")
  set(has_headeronly)
  if(EXISTS "${add_library_file}")  # its name in current TriBITS
    file(STRINGS "${add_library_file}" has_headeronly REGEX "HEADERONLY" LIMIT_COUNT 1)
  endif()
  if(has_headeronly)
    tribits_add_library(dapetra_${name} HEADERS ${headers} HEADERS_INSTALL_SUBDIR ${subdir} HEADERONLY
                        ADDED_LIB_TARGET_NAME_OUT target)
    target_compile_features(${target} INTERFACE cxx_std_17)
  else()
    set(target ${${PROJECT_NAME}_LIBRARY_NAME_PREFIX}dapetra_${name})
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE $<BUILD_INTERFACE:${include_dir}>
                                                   $<INSTALL_INTERFACE:${${PROJECT_NAME}_INSTALL_INCLUDE_DIR}>)
    target_compile_features(${target} INTERFACE cxx_std_17)
    foreach(dep IN LISTS ${PACKAGE_NAME}_LIB_REQUIRED_DEP_PACKAGES)
      target_link_libraries(${target} INTERFACE ${${dep}_LIBRARIES})
    endforeach()
    foreach(tpl IN LISTS ${PACKAGE_NAME}_LIB_REQUIRED_DEP_TPLS)
      target_include_directories(${target} SYSTEM INTERFACE ${TPL_${tpl}_INCLUDE_DIRS})
    endforeach()
    install(TARGETS ${target} EXPORT ${PACKAGE_NAME})
    global_set(${PACKAGE_NAME}_LIBRARIES ${target})  # what downstream subpackages link
    tribits_install_headers(HEADERS ${headers} INSTALL_SUBDIR ${subdir})
  endif()
  set(${target_out} ${target} PARENT_SCOPE)
endfunction()

function(dapetra_tribits_tests)
  if(NOT ${PACKAGE_NAME}_ENABLE_TESTS)
    return()
  endif()
  include(${DAPETRA_ROOT}/tests/cmake/tribits.cmake)
  foreach(area IN LISTS ARGN)
    include(${DAPETRA_ROOT}/tests/${area}/tests.cmake)
  endforeach()
endfunction()
