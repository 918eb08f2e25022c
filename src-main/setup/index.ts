/** The setup domain's door: first-run setup of a production terminal, its form and its local page. */
export { FirstRunSetup, type FirstRunSetupDeps } from './first-run-setup'
export { isCompleteProduction, needsFirstRunSetup, readConfigObject, writeConfigFile } from './config-file'
export { checkForm, configFromForm } from './setup-form'
export { startSetupServer, type SetupServer } from './setup-server'
export { OTHER_CHECK, PLAIN_CHECKS, plainCheck, type CheckFinding } from './plain-checks'
