# PETSc as a TriBITS TPL, found through pkg-config as Dapetra's plain build
# finds it (Debian: petsc-dev). PETSC is the name Trilinos gives the same TPL.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(_dapetra_petsc QUIET PETSc)
endif()
if(_dapetra_petsc_FOUND)
  set(TPL_PETSC_INCLUDE_DIRS "${_dapetra_petsc_INCLUDE_DIRS}" CACHE PATH "PETSc's include directories (pkg-config)")
  set(TPL_PETSC_LIBRARIES "${_dapetra_petsc_LINK_LIBRARIES}" CACHE FILEPATH "PETSc's libraries (pkg-config)")
endif()
tribits_tpl_find_include_dirs_and_libraries(PETSC REQUIRED_HEADERS petscvec.h REQUIRED_LIBS_NAMES petsc)
