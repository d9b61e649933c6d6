# PETSc as a TriBITS TPL, found through pkg-config as Dapetra's plain build
# finds it (Debian: petsc-dev). PETSC is the name Trilinos gives the same TPL.
include("${CMAKE_CURRENT_LIST_DIR}/DapetraPkgConfigTpl.cmake")
dapetra_pkg_config_tpl(PETSC PETSc petscvec.h petsc)
