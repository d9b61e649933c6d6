# dapetra_pkg_config_tpl(<TPL> <module> <header> <library>): an external
# package found through pkg-config's <module>, as Dapetra's plain build finds
# it, as a TriBITS TPL (for FindTPL<TPL>.cmake): pkg-config's include
# directories and libraries when it knows the module, TriBITS' own search
# otherwise.
macro(dapetra_pkg_config_tpl tpl module header library)
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(_dapetra_${tpl} QUIET ${module})
  endif()
  if(_dapetra_${tpl}_FOUND)
    set(TPL_${tpl}_INCLUDE_DIRS "${_dapetra_${tpl}_INCLUDE_DIRS}" CACHE PATH "${tpl}'s include directories (pkg-config ${module})")
    set(TPL_${tpl}_LIBRARIES "${_dapetra_${tpl}_LINK_LIBRARIES}" CACHE FILEPATH "${tpl}'s libraries (pkg-config ${module})")
  endif()
  tribits_tpl_find_include_dirs_and_libraries(${tpl} REQUIRED_HEADERS ${header} REQUIRED_LIBS_NAMES ${library})
endmacro()
