// Test-only module for the loader: CommonJS, module.exports holding the factory and a fault injector.
module.exports = {
  createAdapter() {
    return { origin: 'commonjs createAdapter' };
  },
  faults: { inject() {}, reset() {} },
};
