# TriBITS: this repository holds one package, Dapetra (subpackages in cmake/Dependencies.cmake).
tribits_repository_define_packages(
  Dapetra  .  PT
  )
