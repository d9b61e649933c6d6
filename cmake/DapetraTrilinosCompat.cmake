# Trilinos packages across Trilinos versions, for Dapetra's build, its
# installed package and its TriBITS TPL find modules:
#   dapetra_trilinos_target(<target> <Package>)       an imported target
#   dapetra_trilinos_usage(<Package> <libs> <dirs> [FILES])
#     libraries (imported targets, or with FILES their files: what a TriBITS
#     TPL can export) and include paths
# Trilinos 14+ exports <Package>::all_libs with usage requirements; Debian's
# 13.2 gives plain library names in <Package>_LIBRARIES, include paths in
# <Package>_INCLUDE_DIRS (MPI's are not propagated: link MPI::MPI_CXX too) and
# extra libraries in <Package>_TPL_LIBRARIES. dapetra::trilinos_tpetra is
# defined here for the Tpetra adapter.
function(dapetra_trilinos_usage package libs_out dirs_out)
  cmake_parse_arguments(PARSE_ARGV 3 arg "FILES" "" "")
  set(libs)
  foreach(lib IN LISTS ${package}_LIBRARIES)
    if((TARGET ${lib} AND NOT arg_FILES) OR IS_ABSOLUTE "${lib}")
      list(APPEND libs ${lib})
    else()
      find_library(_dapetra_found_${lib} NAMES ${lib} HINTS ${${package}_LIBRARY_DIRS} REQUIRED)
      list(APPEND libs ${_dapetra_found_${lib}})
    endif()
  endforeach()
  # Debian's configs name some TPL include paths it does not ship (e.g. scotch's).
  set(dirs)
  foreach(dir IN LISTS ${package}_INCLUDE_DIRS ${package}_TPL_INCLUDE_DIRS)
    if(EXISTS "${dir}")
      list(APPEND dirs ${dir})
    endif()
  endforeach()
  foreach(lib IN LISTS ${package}_TPL_LIBRARIES)  # ... and TPL libraries (e.g. ptscotch's)
    if(NOT IS_ABSOLUTE "${lib}" OR EXISTS "${lib}")
      list(APPEND libs ${lib})
    endif()
  endforeach()
  set(${libs_out} "${libs}" PARENT_SCOPE)
  set(${dirs_out} "${dirs}" PARENT_SCOPE)
endfunction()

function(dapetra_trilinos_target target package)
  if(TARGET ${target})
    return()
  endif()
  add_library(${target} INTERFACE IMPORTED)
  if(TARGET ${package}::all_libs)
    target_link_libraries(${target} INTERFACE ${package}::all_libs)
    return()
  endif()
  dapetra_trilinos_usage(${package} libs dirs)
  target_link_libraries(${target} INTERFACE ${libs})
  target_include_directories(${target} SYSTEM INTERFACE ${dirs})
endfunction()

if(Tpetra_FOUND)
  dapetra_trilinos_target(dapetra::trilinos_tpetra Tpetra)
endif()
