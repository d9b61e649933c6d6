# Parallel HDF5 as a TriBITS TPL, found through pkg-config as Dapetra's plain
# build finds it (DAPETRA_HDF5_PKG, default hdf5-openmpi; Debian:
# libhdf5-openmpi-dev). HDF5 is the name Trilinos gives the same TPL.
include("${CMAKE_CURRENT_LIST_DIR}/DapetraPkgConfigTpl.cmake")
set(DAPETRA_HDF5_PKG hdf5-openmpi CACHE STRING "pkg-config's name for a parallel HDF5")
dapetra_pkg_config_tpl(HDF5 ${DAPETRA_HDF5_PKG} hdf5.h hdf5)
