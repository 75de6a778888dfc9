# `cmake --install` of ForgeKernel: the forge tool, the harness and core
# libraries with their headers, and a config package (lib/cmake/ForgeKernel)
# that gives find_package(ForgeKernel) the same forge_add_operator() as a
# source build, with the operator card templates (share/ForgeKernel/templates).
include(CMakePackageConfigHelpers)

set(FORGE_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/ForgeKernel")
set(FORGE_INSTALL_TEMPLATESDIR "${CMAKE_INSTALL_DATADIR}/ForgeKernel/templates")

# Imported as forge::core, forge::bench and forge::forge, the names the source tree aliases.
set_target_properties(forge_core PROPERTIES EXPORT_NAME core)
set_target_properties(forge_bench PROPERTIES EXPORT_NAME bench)
install(TARGETS forge_core forge_bench forge EXPORT ForgeKernelTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/forge" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(EXPORT ForgeKernelTargets NAMESPACE forge:: DESTINATION "${FORGE_INSTALL_CMAKEDIR}")

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/ForgeKernelConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/ForgeKernelConfig.cmake"
  INSTALL_DESTINATION "${FORGE_INSTALL_CMAKEDIR}"
  PATH_VARS FORGE_INSTALL_TEMPLATESDIR)
# 0.x: a new minor version may change the function's behaviour.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/ForgeKernelConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/ForgeKernelConfig.cmake"
  "${PROJECT_BINARY_DIR}/ForgeKernelConfigVersion.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/ForgeKernel.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/ForgeOperator.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/ForgeScaffold.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/ForgeTests.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/ForgeRunEvals.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/ForgeSkippedBenches.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/ForgeVerdictNotes.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/ForgeSideSymbols.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/ForgeLinkCheck.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/ForgeTool.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/ForgeValidate.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/ForgeDashboard.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/README.md"  # the function's reference, beside the modules that point to it
  DESTINATION "${FORGE_INSTALL_CMAKEDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/templates/" DESTINATION "${FORGE_INSTALL_TEMPLATESDIR}")
