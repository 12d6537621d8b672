// Jest globalSetup: runs once in the parent process before any test worker
// is started, so every worker inherits TZ=UTC and date formatting in tests
// does not depend on the machine's time zone. (A `setupFiles` entry would not
// be enough: Jest gives each test file a copy of process.env, so assigning TZ
// there never reaches the real process.)
module.exports = async function setupEnv() {
  process.env.TZ = "UTC";
};
