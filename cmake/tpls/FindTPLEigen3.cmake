# Eigen (header-only, 3.3 to 5) as a TriBITS TPL, for the Eigen adapter.
include("${CMAKE_CURRENT_LIST_DIR}/../DapetraCompat.cmake")
dapetra_find_eigen3(QUIET)
if(Eigen3_FOUND)
  get_target_property(_dapetra_eigen_dirs Eigen3::Eigen INTERFACE_INCLUDE_DIRECTORIES)
  set(TPL_Eigen3_INCLUDE_DIRS "${_dapetra_eigen_dirs}" CACHE PATH "Eigen's include directory")
endif()
tribits_tpl_find_include_dirs_and_libraries(Eigen3 REQUIRED_HEADERS Eigen/Core MUST_FIND_ALL_HEADERS)
