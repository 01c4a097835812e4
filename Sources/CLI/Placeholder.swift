// CLI module.
