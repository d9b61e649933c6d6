# nlohmann-json is header-only; Dapetra needs its headers inside the core's .cpp files.
tribits_tpl_find_include_dirs_and_libraries(nlohmann_json
  REQUIRED_HEADERS nlohmann/json.hpp
  MUST_FIND_ALL_HEADERS)
