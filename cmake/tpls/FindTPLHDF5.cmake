# Parallel HDF5 as a TriBITS TPL, found through pkg-config as Dapetra's plain
# build finds it (DAPETRA_HDF5_PKG, default hdf5-openmpi; Debian:
# libhdf5-openmpi-dev). HDF5 is the name Trilinos gives the same TPL.
set(DAPETRA_HDF5_PKG hdf5-openmpi CACHE STRING "pkg-config's name for a parallel HDF5")
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(_dapetra_hdf5 QUIET ${DAPETRA_HDF5_PKG})
endif()
if(_dapetra_hdf5_FOUND)
  set(TPL_HDF5_INCLUDE_DIRS "${_dapetra_hdf5_INCLUDE_DIRS}" CACHE PATH "parallel HDF5's include directories (pkg-config)")
  set(TPL_HDF5_LIBRARIES "${_dapetra_hdf5_LINK_LIBRARIES}" CACHE FILEPATH "parallel HDF5's libraries (pkg-config)")
endif()
tribits_tpl_find_include_dirs_and_libraries(HDF5 REQUIRED_HEADERS hdf5.h REQUIRED_LIBS_NAMES hdf5)
