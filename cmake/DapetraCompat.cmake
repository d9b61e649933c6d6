# Every difference between versions of the packages Dapetra finds, in one
# place, for Dapetra's build, its installed package and its TriBITS TPL find
# modules (the C++ twin is adapters/tpetra/include/dapetra/tpetra/compat.hpp).
#
# dapetra_find_eigen3([REQUIRED] [QUIET]): Eigen 3.3 to 5. Eigen's version
# file accepts only its own major version (SameMajorVersion), a version range
# included (both ends must share it), so "3.3" refuses Eigen 5 and
# "3.3...<6" refuses 3.4: Eigen is found without a version and its version
# checked here.
set(DAPETRA_EIGEN3_MIN 3.3)
set(DAPETRA_EIGEN3_BELOW 6)
macro(dapetra_find_eigen3)
  find_package(Eigen3 NO_MODULE ${ARGN})
  if(Eigen3_FOUND AND (Eigen3_VERSION VERSION_LESS DAPETRA_EIGEN3_MIN OR
                       NOT Eigen3_VERSION VERSION_LESS DAPETRA_EIGEN3_BELOW))
    set(_dapetra_eigen_refusal "Eigen ${Eigen3_VERSION} (${Eigen3_DIR}): Dapetra takes ${DAPETRA_EIGEN3_MIN} to below ${DAPETRA_EIGEN3_BELOW}")
    if(";${ARGN};" MATCHES ";REQUIRED;")
      message(FATAL_ERROR "${_dapetra_eigen_refusal}")
    endif()
    message(STATUS "${_dapetra_eigen_refusal}")
    set(Eigen3_FOUND FALSE)
  endif()
endmacro()
#
# Trilinos packages, 13.2 to 16:
#   dapetra_trilinos_target(<target> <Package>)       an imported target
#   dapetra_trilinos_usage(<Package> <libs> <dirs> [FILES])
#     libraries (imported targets, or with FILES the files behind them: what
#     a TriBITS TPL can export) and include paths
# Trilinos 14+ exports <Package>::all_libs with usage requirements; Debian's
# 13.2 gives plain library names in <Package>_LIBRARIES, include paths in
# <Package>_INCLUDE_DIRS (MPI's are not propagated: link MPI::MPI_CXX too) and
# extra libraries in <Package>_TPL_LIBRARIES.
# A package's libraries as its config lists them. Debian's Zoltan2 16.1 is a
# parent package whose <Package>::all_libs links nothing: its libraries are
# its subpackage's, <Package>Core::all_libs, added here.
function(_dapetra_package_libraries package out)
  set(libs ${${package}_LIBRARIES})
  if(TARGET ${package}::all_libs AND TARGET ${package}Core::all_libs)
    get_target_property(links ${package}::all_libs INTERFACE_LINK_LIBRARIES)
    if(NOT links)
      list(APPEND libs ${package}Core::all_libs)
    endif()
  endif()
  set(${out} "${libs}" PARENT_SCOPE)
endfunction()

function(dapetra_trilinos_usage package libs_out dirs_out)
  cmake_parse_arguments(PARSE_ARGV 3 arg "FILES" "" "")
  set(libs)
  set(dirs)
  set_property(GLOBAL PROPERTY _dapetra_imported_seen "")
  _dapetra_package_libraries(${package} package_libs)
  foreach(lib IN LISTS package_libs)
    if(TARGET ${lib} AND arg_FILES)
      _dapetra_imported_files(${lib} libs dirs)
    elseif(TARGET ${lib} OR IS_ABSOLUTE "${lib}")
      list(APPEND libs ${lib})
    else()
      find_library(_dapetra_found_${lib} NAMES ${lib} HINTS ${${package}_LIBRARY_DIRS} REQUIRED)
      list(APPEND libs ${_dapetra_found_${lib}})
    endif()
  endforeach()
  # Debian's configs name some TPL include paths it does not ship (e.g. scotch's).
  foreach(dir IN LISTS ${package}_INCLUDE_DIRS ${package}_TPL_INCLUDE_DIRS)
    if(EXISTS "${dir}")
      list(APPEND dirs ${dir})
    endif()
  endforeach()
  foreach(lib IN LISTS ${package}_TPL_LIBRARIES)  # ... and TPL libraries (e.g. ptscotch's)
    if(arg_FILES AND NOT IS_ABSOLUTE "${lib}" AND NOT lib MATCHES "^-")
      list(APPEND libs -l${lib})
    elseif(NOT IS_ABSOLUTE "${lib}" OR EXISTS "${lib}")
      list(APPEND libs ${lib})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES libs)
  list(REMOVE_DUPLICATES dirs)
  set(${libs_out} "${libs}" PARENT_SCOPE)
  set(${dirs_out} "${dirs}" PARENT_SCOPE)
endfunction()

# The files behind an imported target and behind everything it links, and
# its include paths: 13.2's per-library targets (IMPORTED_LOCATION_NONE) and
# the <Package>::all_libs of later versions alike.
function(_dapetra_imported_files target libs_var dirs_var)
  set(libs ${${libs_var}})
  set(dirs ${${dirs_var}})
  get_property(seen GLOBAL PROPERTY _dapetra_imported_seen)
  if(target IN_LIST seen)
    return()
  endif()
  set_property(GLOBAL APPEND PROPERTY _dapetra_imported_seen ${target})
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "INTERFACE_LIBRARY")
    get_target_property(configs ${target} IMPORTED_CONFIGURATIONS)
    set(location location-NOTFOUND)
    foreach(config IN LISTS configs)
      get_target_property(location ${target} IMPORTED_LOCATION_${config})
      if(location)
        break()
      endif()
    endforeach()
    if(NOT location)
      get_target_property(location ${target} IMPORTED_LOCATION)
    endif()
    if(location)
      list(APPEND libs ${location})
    endif()
  endif()
  get_target_property(includes ${target} INTERFACE_INCLUDE_DIRECTORIES)
  if(includes)
    list(APPEND dirs ${includes})
  endif()
  get_target_property(links ${target} INTERFACE_LINK_LIBRARIES)
  foreach(link IN LISTS links)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" link "${link}")
    if(TARGET ${link})
      _dapetra_imported_files(${link} libs dirs)
    elseif(IS_ABSOLUTE "${link}" OR link MATCHES "^-")
      list(APPEND libs ${link})
    elseif(link AND NOT link MATCHES "\\$<")  # a system library by name (m, dl): a flag every TriBITS takes
      list(APPEND libs -l${link})
    endif()
  endforeach()
  set(${libs_var} "${libs}" PARENT_SCOPE)
  set(${dirs_var} "${dirs}" PARENT_SCOPE)
endfunction()

function(dapetra_trilinos_target target package)
  if(TARGET ${target})
    return()
  endif()
  add_library(${target} INTERFACE IMPORTED GLOBAL)  # (one per build: adapters, examples and tests share it)
  if(TARGET ${package}::all_libs)
    _dapetra_package_libraries(${package} package_libs)
    target_link_libraries(${target} INTERFACE ${package_libs})
    return()
  endif()
  dapetra_trilinos_usage(${package} libs dirs)
  target_link_libraries(${target} INTERFACE ${libs})
  target_include_directories(${target} SYSTEM INTERFACE ${dirs})
endfunction()

# dapetra_solver_targets(): dapetra::trilinos_belos, _ifpack2 and _muelu, what
# dapetra/tpetra/solver.hpp and block_system.hpp link, from packages found already.
macro(dapetra_solver_targets)
  dapetra_trilinos_target(dapetra::trilinos_belos Belos)
  dapetra_trilinos_target(dapetra::trilinos_ifpack2 Ifpack2)
  dapetra_trilinos_target(dapetra::trilinos_muelu MueLu)
endmacro()
