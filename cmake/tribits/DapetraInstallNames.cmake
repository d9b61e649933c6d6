# A TriBITS install offers what the plain install offers, so one downstream
# project builds against either unchanged: find_package(Dapetra <version>)
# (a version file, which TriBITS writes for no package) and the targets
# Dapetra::core, ::mpi, ::tpetra, ::eigen and ::all_libs, naming the targets
# TriBITS exported (<Subpackage>::<prefix>dapetra_<name>). TriBITS' generated
# DapetraConfig.cmake has no hook for extra code, so one include line is
# appended to it before it is installed.
include(CMakePackageConfigHelpers)

function(dapetra_write_install_names)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles")
  set(names "${dir}/DapetraTargetNames.cmake")
  file(WRITE ${names} "# Dapetra's target names over what TriBITS exported (written by cmake/tribits/DapetraInstallNames.cmake).\n"
                      "set(Dapetra_DAP_VERSION \"${DAPETRA_DAP_VERSION}\")\n")
  get_property(libraries GLOBAL PROPERTY DAPETRA_TRIBITS_LIBRARIES)
  set(all)
  foreach(entry IN LISTS libraries)  # <name>=<Subpackage>::<target>
    string(REPLACE "=" ";" entry "${entry}")
    list(GET entry 0 name)
    list(GET entry 1 exported)
    string(REGEX REPLACE "::.*" "" subpackage "${exported}")
    file(APPEND ${names}
      "if(NOT TARGET ${exported})\n"
      "  include(\"\${CMAKE_CURRENT_LIST_DIR}/../${subpackage}/${subpackage}Config.cmake\")\n"
      "endif()\n"
      "if(NOT TARGET Dapetra::${name})\n"
      "  add_library(Dapetra::${name} INTERFACE IMPORTED)\n"
      "  set_target_properties(Dapetra::${name} PROPERTIES INTERFACE_LINK_LIBRARIES ${exported})\n"
      "  if(${subpackage}_TPL_INCLUDE_DIRS)  # TriBITS before 2022: TPL include paths in a variable only\n"
      "    set_target_properties(Dapetra::${name} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES \"\${${subpackage}_TPL_INCLUDE_DIRS}\")\n"
      "  endif()\n"
      "endif()\n")
    list(APPEND all Dapetra::${name})
  endforeach()
  file(APPEND ${names}
    "if(NOT TARGET Dapetra::all_libs)\n"
    "  add_library(Dapetra::all_libs INTERFACE IMPORTED)\n"
    "  set_target_properties(Dapetra::all_libs PROPERTIES INTERFACE_LINK_LIBRARIES \"${all}\")\n"
    "endif()\n")
  write_basic_package_version_file(${dir}/DapetraConfigVersion.cmake VERSION ${DAPETRA_VERSION}
                                   COMPATIBILITY SameMajorVersion)
  set(config "${dir}/DapetraConfig_install.cmake")
  if(EXISTS "${config}")
    file(APPEND "${config}" "\ninclude(\"\${CMAKE_CURRENT_LIST_DIR}/DapetraTargetNames.cmake\")\n")
    install(FILES ${names} ${dir}/DapetraConfigVersion.cmake
            DESTINATION "${${PROJECT_NAME}_INSTALL_LIB_DIR}/cmake/Dapetra")
  endif()
endfunction()
dapetra_write_install_names()
