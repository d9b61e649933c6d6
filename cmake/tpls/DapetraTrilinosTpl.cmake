# dapetra_trilinos_tpl(<Package> <header> <library>): a package of an
# installed Trilinos as a TriBITS TPL (for FindTPL<Package>.cmake), through
# find_package(<Package>) (<Package>_DIR or CMAKE_PREFIX_PATH), whose config
# brings what the package needs (Tpetra's brings Teuchos and Kokkos). The TPL
# lists the files behind the package's libraries: Debian's 13.2 gives names
# and imported targets without usage requirements, later versions
# <Package>::all_libs; TPL files serve every TriBITS version alike.
include("${CMAKE_CURRENT_LIST_DIR}/../DapetraCompat.cmake")
macro(dapetra_trilinos_tpl package header library)
  find_package(${package} REQUIRED)
  dapetra_trilinos_usage(${package} _dapetra_libs _dapetra_dirs FILES)
  set(TPL_${package}_LIBRARIES "${_dapetra_libs}" CACHE FILEPATH "${package}'s libraries and theirs (find_package(${package}))")
  set(TPL_${package}_INCLUDE_DIRS "${_dapetra_dirs}" CACHE PATH "${package}'s include directories (find_package(${package}))")
  tribits_tpl_find_include_dirs_and_libraries(${package} REQUIRED_HEADERS ${header} REQUIRED_LIBS_NAMES ${library})
endmacro()
