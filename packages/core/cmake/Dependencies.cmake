tribits_package_define_dependencies(
  LIB_REQUIRED_TPLS nlohmann_json
  )
