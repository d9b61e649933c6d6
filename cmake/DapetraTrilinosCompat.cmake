# Imported targets for Trilinos packages across Trilinos versions:
#   dapetra_trilinos_target(<target> <Package>)
# Trilinos 14+ exports <Package>::all_libs with usage requirements; Debian's
# 13.2 gives plain library names in <Package>_LIBRARIES, include paths in
# <Package>_INCLUDE_DIRS (MPI's are not propagated: link MPI::MPI_CXX too) and
# extra libraries in <Package>_TPL_LIBRARIES. dapetra::trilinos_tpetra is
# defined here for the Tpetra adapter.
function(dapetra_trilinos_target target package)
  if(TARGET ${target})
    return()
  endif()
  add_library(${target} INTERFACE IMPORTED)
  if(TARGET ${package}::all_libs)
    target_link_libraries(${target} INTERFACE ${package}::all_libs)
    return()
  endif()
  set(libs)
  foreach(lib IN LISTS ${package}_LIBRARIES)
    if(TARGET ${lib} OR IS_ABSOLUTE "${lib}")
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
  target_link_libraries(${target} INTERFACE ${libs})
  target_include_directories(${target} SYSTEM INTERFACE ${dirs})
endfunction()

if(Tpetra_FOUND)
  dapetra_trilinos_target(dapetra::trilinos_tpetra Tpetra)
endif()
