/**
 * The resources of `palee mcp` (contract §5): the working memory (hot.md) and each confirmed session note,
 * read as they are on disk. Reading never writes and takes no lock.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { UsageError } from "../../core/errors";
import { coreFor, errorReport } from "../invoke";
import type { ServerSetup } from "./call";

export const WORKING_MEMORY_URI = "palee://working-memory";
export const SESSION_TEMPLATE = "palee://session/{id}";

const MARKDOWN = "text/markdown";

/** A read that fails says the CLI's stable code first ("no_such_session: …"), as a protocol error. */
async function readOrRefuse<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (caught) {
    const { error, message } = errorReport(caught);
    throw new Error(`${error.kind}: ${message}`);
  }
}

export function registerResources(server: McpServer, setup: ServerSetup): void {
  server.registerResource(
    "working-memory",
    WORKING_MEMORY_URI,
    { title: "Working memory", description: "hot.md: the active topic and the last sessions", mimeType: MARKDOWN },
    (uri) =>
      readOrRefuse(async () => {
        const vault = await setup.chooseVault();
        const text = await coreFor(vault, setup.env).store.read(vault.layout.hot);
        return { contents: [{ uri: uri.href, mimeType: MARKDOWN, text: text ?? "" }] };
      }),
  );
  const template = new ResourceTemplate(SESSION_TEMPLATE, {
    list: () =>
      readOrRefuse(async () => {
        const { core } = coreFor(await setup.chooseVault(), setup.env);
        const { confirmed } = await core.list({ all: true });
        const resources = confirmed.map((s) => ({
          uri: `palee://session/${s.sessionId}`,
          name: s.sessionId,
          title: `${s.topicId}, ${s.startedAt}`,
          mimeType: MARKDOWN,
        }));
        return { resources };
      }),
  });
  server.registerResource(
    "session",
    template,
    { title: "Confirmed session", description: "A confirmed session note (S-…), as written", mimeType: MARKDOWN },
    (uri, variables) =>
      readOrRefuse(async () => {
        const id = typeof variables.id === "string" ? decodeURIComponent(variables.id) : "";
        const vault = await setup.chooseVault();
        const { core, store } = coreFor(vault, setup.env);
        const shown = await core.show(id);
        if (shown.kind !== "session")
          throw new UsageError(`${id} is a draft, not a confirmed session`, "no_such_session");
        const text = (await store.read(shown.session.session.path)) ?? "";
        return { contents: [{ uri: uri.href, mimeType: MARKDOWN, text }] };
      }),
  );
}
