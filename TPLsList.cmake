# TriBITS: the external packages Dapetra adds to a TriBITS project, each with
# its find module in cmake/tpls/, upstream first. One that an earlier
# repository already defines (Trilinos' PETSC TPL; Tpetra, Belos, ... are
# packages inside a Trilinos source tree) is left as that repository defined
# it. One call: each call replaces the repository's list.
set(_dapetra_tpls)
foreach(_dapetra_tpl nlohmann_json Eigen3 Tpetra Belos Ifpack2 MueLu Zoltan2 PETSC HDF5 dealii pybind11)
  if(NOT DEFINED ${_dapetra_tpl}_FINDMOD AND NOT DEFINED ${_dapetra_tpl}_SOURCE_DIR)
    list(APPEND _dapetra_tpls ${_dapetra_tpl} "cmake/tpls/" PT)
  endif()
endforeach()
tribits_repository_define_tpls(${_dapetra_tpls})
