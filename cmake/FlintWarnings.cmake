# SPDX-License-Identifier: MIT
# flint_set_warnings(TARGET): the warning set every first-party target compiles with.
function(flint_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                           -Wold-style-cast -Wcast-align -Woverloaded-virtual
                                           -Wimplicit-fallthrough)
  # GCC 12 reports false -Wrestrict positives inside libstdc++'s std::string operator+ at -O2
  # (GCC bug 105329, fixed in GCC 13).
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
endfunction()

# flint_qt_defaults(TARGET): the Qt string and keyword rules of STYLE.md.
function(flint_qt_defaults target)
  target_compile_definitions(${target} PRIVATE QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII
                                               QT_USE_QSTRINGBUILDER QT_NO_FOREACH QT_NO_KEYWORDS)
endfunction()
