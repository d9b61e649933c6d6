# pybind11 (header-only) as a TriBITS TPL, for the Python package. Only its
# headers are looked for here: its config (pybind11_add_module) also looks
# for Python, which the subpackage does itself (cmake/DapetraPython.cmake).
tribits_tpl_find_include_dirs_and_libraries(pybind11 REQUIRED_HEADERS pybind11/pybind11.h MUST_FIND_ALL_HEADERS)
