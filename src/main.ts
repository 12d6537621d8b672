import { Plugin } from "obsidian";

export default class PaleeSessionsPlugin extends Plugin {
	onload(): void {
		// Nothing is registered yet: the commands, the status bar timer and
		// crash recovery arrive with the plugin issue. This entry point exists
		// so the plugin bundle builds and is linted from the start.
	}
}
