# One imported target, dapetra::trilinos_tpetra, for Tpetra across Trilinos
# versions. Trilinos 14+ exports Tpetra::all_libs with usage requirements;
# Debian's 13.2 gives plain library names in Tpetra_LIBRARIES, include paths in
# Tpetra_INCLUDE_DIRS (MPI's are not propagated: link MPI::MPI_CXX too) and
# extra libraries in Tpetra_TPL_LIBRARIES.
if(TARGET dapetra::trilinos_tpetra)
  return()
endif()
add_library(dapetra::trilinos_tpetra INTERFACE IMPORTED)
if(TARGET Tpetra::all_libs)
  target_link_libraries(dapetra::trilinos_tpetra INTERFACE Tpetra::all_libs)
else()
  set(_dapetra_tpetra_libs)
  foreach(_lib IN LISTS Tpetra_LIBRARIES)
    if(TARGET ${_lib} OR IS_ABSOLUTE "${_lib}")
      list(APPEND _dapetra_tpetra_libs ${_lib})
    else()
      find_library(_dapetra_found_${_lib} NAMES ${_lib} HINTS ${Tpetra_LIBRARY_DIRS} REQUIRED)
      list(APPEND _dapetra_tpetra_libs ${_dapetra_found_${_lib}})
    endif()
  endforeach()
  target_link_libraries(dapetra::trilinos_tpetra INTERFACE ${_dapetra_tpetra_libs} ${Tpetra_TPL_LIBRARIES})
  target_include_directories(dapetra::trilinos_tpetra SYSTEM INTERFACE ${Tpetra_INCLUDE_DIRS} ${Tpetra_TPL_INCLUDE_DIRS})
endif()
