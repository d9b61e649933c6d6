tribits_package_define_dependencies(
  LIB_REQUIRED_PACKAGES DapetraCore
  LIB_REQUIRED_TPLS Eigen3
  )
