# TriBITS: the external packages Dapetra adds to a TriBITS project.
tribits_repository_define_tpls(
  nlohmann_json  "cmake/tpls/"  PT
  )
