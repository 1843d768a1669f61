"""Platform and process concerns: settings, the state folder, shipped data, each platform run on its own, operations."""
