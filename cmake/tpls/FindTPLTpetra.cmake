# Tpetra as a TriBITS TPL: an installed Trilinos found with find_package(Tpetra)
# (Tpetra_DIR or CMAKE_PREFIX_PATH), whose config brings Teuchos and Kokkos.
# Trilinos 14 and later export Tpetra::all_libs; Debian's 13.2 gives library
# names and include paths only, which DapetraTrilinosCompat.cmake resolves.
find_package(Tpetra REQUIRED)
include("${CMAKE_CURRENT_LIST_DIR}/../DapetraTrilinosCompat.cmake")
if(TARGET Tpetra::all_libs AND COMMAND tribits_extpkg_create_imported_all_libs_target_and_config_file)
  tribits_extpkg_create_imported_all_libs_target_and_config_file(Tpetra
    INNER_FIND_PACKAGE_NAME Tpetra IMPORTED_TARGETS_FOR_ALL_LIBS Tpetra::all_libs)
else()
  dapetra_trilinos_usage(Tpetra libs dirs FILES)
  set(TPL_Tpetra_LIBRARIES "${libs}" CACHE FILEPATH "Tpetra's libraries and their dependencies (from find_package(Tpetra))")
  set(TPL_Tpetra_INCLUDE_DIRS "${dirs}" CACHE PATH "Tpetra's include directories (from find_package(Tpetra))")
  tribits_tpl_find_include_dirs_and_libraries(Tpetra REQUIRED_HEADERS Tpetra_Map.hpp REQUIRED_LIBS_NAMES tpetra)
endif()
