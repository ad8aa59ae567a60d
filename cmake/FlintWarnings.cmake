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
  # Clang (the fuzz preset) flags libstdc++ 12's own std::stable_sort, which calls the deprecated
  # std::get_temporary_buffer.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    target_compile_options(${target} PRIVATE -Wno-deprecated-declarations)
  endif()
endfunction()

# flint_qt_defaults(TARGET): the Qt string and keyword rules of STYLE.md.
function(flint_qt_defaults target)
  target_compile_definitions(${target} PRIVATE QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII
                                               QT_USE_QSTRINGBUILDER QT_NO_FOREACH QT_NO_KEYWORDS)
endfunction()

# Installed executables find Debian's libMLIR.so.19.1 (and libLLVM) in /usr/lib/llvm-19/lib, which
# is off the dynamic loader's path. The RUNPATH reaches it relative to $ORIGIN from the install
# prefix's bin directory (/usr/bin/../lib/llvm-19/lib for the presets' prefix /usr, which the Debian
# package uses too), so that it names no custom absolute search path (lintian:
# custom-library-search-path). Builds keep CMake's build-tree RUNPATH.
function(flint_set_install_rpath target)
  if(FLINT_LLVM_LIBRARY_DIR)
    file(RELATIVE_PATH llvmFromBin "${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}" "${FLINT_LLVM_LIBRARY_DIR}")
    set_target_properties(${target} PROPERTIES INSTALL_RPATH "\$ORIGIN/${llvmFromBin}")
  endif()
endfunction()
