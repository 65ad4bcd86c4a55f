// host.mjs: an MCP Apps host in a browser page, for apps.test.mjs (bundled
// by esbuild). Its MCP client is the official TypeScript SDK's (v2), its
// bridge to the app the official @modelcontextprotocol/ext-apps AppBridge,
// wired as the package's reference host (examples/basic-host) wires it:
// the app's HTML goes to a sandbox proxy on another origin, which serves it
// under the policy its _meta.ui.csp asks for, and the app's tools/call and
// resources/read go through the bridge to the server. The model's part is
// played by the test, through window.host.
//
// With renderer "mcp-ui" the app is rendered by @mcp-ui/client's
// AppRenderer (React) instead, which runs its own copy of the bridge.
//
// The client reaches ttywright over Streamable HTTP from the page, or over
// stdio through the test's Node side (a relay transport: window.__relaySend
// out, window.__relayReceive in). Every message it receives is kept in
// host.received, for the test to look for a secret there.

import {
  AppBridge, PostMessageTransport, getToolUiResourceUri, isToolVisibilityAppOnly, RESOURCE_MIME_TYPE,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppRenderer } from "@mcp-ui/client";
import { createElement } from "react";
import { createRoot } from "react-dom/client";

const info = { name: "ttywright-interop-host", version: "1.0.0" };
const appsCapability = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } } };

// RelayTransport is stdio through the test's Node side: a line out, a line in.
class RelayTransport {
  async start() { window.__relayReceive = (line) => this.onmessage?.(JSON.parse(line)); }
  async send(message) { await window.__relaySend(JSON.stringify(message)); }
  async close() { this.onclose?.(); }
}

// recording wraps a transport so that every message received is kept,
// whoever sets its onmessage and when.
function recording(transport, received) {
  let deliver = transport.onmessage;
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    get: () => deliver && ((m, extra) => { received.push(JSON.stringify(m)); deliver(m, extra); }),
    set: (fn) => { deliver = fn; },
  });
  return transport;
}

// Host themes: the host page's colours and the style variables it gives
// the app (the extension's names).
const themes = {
  light: { "--color-background-primary": "#ffffff", "--color-background-secondary": "#f4f4f5", "--color-text-primary": "#18181b",
    "--color-text-secondary": "#52525b", "--color-border-primary": "#e4e4e7", "--font-sans": "system-ui, sans-serif" },
  dark: { "--color-background-primary": "#1f1f23", "--color-background-secondary": "#29292e", "--color-text-primary": "#f4f4f5",
    "--color-text-secondary": "#a1a1aa", "--color-border-primary": "#3f3f46", "--font-sans": "system-ui, sans-serif" },
};

const host = {
  client: null, tools: [], received: [], modelContext: [], apps: [], theme: "dark", sandboxURL: "", renderer: "bridge",

  // connect connects the host's client: {transport: "stdio" | "http",
  // url, token, era: "2026-07-28" | "legacy"}; it returns the protocol
  // version and the tools.
  async connect({ transport, url, token, era, sandboxURL, renderer }) {
    host.sandboxURL = sandboxURL;
    host.renderer = renderer || "bridge";
    const client = new Client(info, { capabilities: appsCapability, versionNegotiation: { mode: era === "legacy" ? "legacy" : { pin: era } } });
    const t = transport === "http"
      ? new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } })
      : new RelayTransport();
    await client.connect(recording(t, host.received));
    host.client = client;
    host.tools = (await client.listTools()).tools;
    return { version: client.getNegotiatedProtocolVersion?.() || "", tools: host.tools };
  },

  // modelTools are the tools the host shows its model: not the app-only ones.
  modelTools() { return host.tools.filter((t) => !isToolVisibilityAppOnly(t)).map((t) => t.name); },

  // call is a tool call of the model. A tool linked to an app shows it,
  // in a card of the conversation, when show is true.
  async call(name, args, show) {
    const result = await host.client.callTool({ name, arguments: args }, { timeout: 60000 });
    const tool = host.tools.find((t) => t.name === name);
    const uri = tool && getToolUiResourceUri(tool);
    if (show && uri) await host.show(tool, uri, args, result);
    return result;
  },

  // show renders the app of uri for a call of tool, as a card.
  async show(tool, uri, args, result) {
    const read = await host.client.readResource({ uri });
    const content = read.contents[0];
    if (content.mimeType !== RESOURCE_MIME_TYPE) throw new Error("the app's MIME type is " + content.mimeType);
    const csp = content._meta?.ui?.csp;
    const card = document.createElement("section");
    card.className = "card";
    card.innerHTML = `<div class="call">ttywright · <b></b></div>`;
    card.querySelector("b").textContent = tool.name;
    document.getElementById("chat").append(card);
    if (host.renderer === "mcp-ui") return host.showMcpUI(tool, args, result, content.text, csp, card);
    const iframe = document.createElement("iframe");
    iframe.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
    iframe.title = "ttywright terminal";
    card.append(iframe);

    const ready = new Promise((resolve) => {
      const on = (e) => { if (e.source === iframe.contentWindow && e.data?.method === "ui/notifications/sandbox-proxy-ready") { window.removeEventListener("message", on); resolve(); } };
      window.addEventListener("message", on);
    });
    const src = new URL(host.sandboxURL);
    src.searchParams.set("csp", JSON.stringify(csp || {}));
    iframe.src = src.href;
    await ready;

    const caps = host.client.getServerCapabilities();
    const bridge = new AppBridge(host.client, info, {
      openLinks: {}, serverTools: caps?.tools, serverResources: caps?.resources, logging: {}, updateModelContext: { text: {} },
    }, { hostContext: host.context("inline") });
    const app = { card, iframe, bridge, mode: "inline", calls: [], sizes: [] };
    bridge.onupdatemodelcontext = async (p) => { host.modelContext.push(p); return {}; };
    bridge.onsizechange = ({ height }) => { app.sizes.push(height); if (height && app.mode === "inline") iframe.style.height = height + "px"; };
    bridge.onrequestdisplaymode = async ({ mode }) => { host.setMode(app, mode); return { mode: app.mode }; };
    bridge.onloggingmessage = (p) => console.log("app log:", JSON.stringify(p));
    const initialized = new Promise((resolve) => bridge.addEventListener("initialized", resolve));
    await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
    // The host lets the app call only the tools visible to apps.
    const proxied = bridge.oncalltool;
    bridge.oncalltool = async (params, extra) => { host.mayCall(app, params.name); return proxied(params, extra); };
    await bridge.sendSandboxResourceReady({ html: content.text, csp });
    await initialized;
    await bridge.sendToolInput({ arguments: args });
    await bridge.sendToolResult(result);
    host.apps.push(app);
    return host.apps.length - 1;
  },

  // mayCall lets an app call only the tools visible to apps.
  mayCall(app, name) {
    const t = host.tools.find((x) => x.name === name);
    const vis = t?._meta?.ui?.visibility;
    if (!t || (vis && !vis.includes("app"))) throw new Error("the app may not call " + name);
    app.calls.push(name);
  },

  // showMcpUI renders the app with @mcp-ui/client's AppRenderer, which
  // answers display mode requests with the mode the host context has.
  async showMcpUI(tool, args, result, html, csp, card) {
    const holder = document.createElement("div");
    card.append(holder);
    const root = createRoot(holder);
    const app = { card, mode: "inline", calls: [], sizes: [], modes: ["inline"] };
    // The same capabilities object each render: AppRenderer makes a new
    // bridge, and a new frame, when it changes.
    const hostCapabilities = { openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, updateModelContext: { text: {} } };
    app.render = () => root.render(createElement(AppRenderer, {
      toolName: tool.name, sandbox: { url: new URL(host.sandboxURL), csp }, html, toolInput: args, toolResult: result,
      hostInfo: info, hostContext: host.context("inline", app.modes), hostCapabilities,
      onCallTool: async (params) => { host.mayCall(app, params.name); return host.client.callTool(params); },
      onReadResource: (params) => host.client.readResource(params),
      onSizeChanged: ({ height }) => { app.sizes.push(height); },
      onFallbackRequest: async (req) => {
        if (req.method === "ui/update-model-context") { host.modelContext.push(req.params); return {}; }
        throw new Error("no handler for " + req.method);
      },
      onError: (e) => console.error("AppRenderer:", e.message),
    }));
    app.render();
    host.apps.push(app);
    return host.apps.length - 1;
  },

  // context is the host context for a display mode.
  context(mode, modes = ["inline", "fullscreen", "pip"]) {
    return {
      theme: host.theme, displayMode: mode, availableDisplayModes: modes, platform: "web",
      styles: { variables: themes[host.theme] }, containerDimensions: mode === "inline" ? { maxHeight: 4000 } : { height: window.innerHeight },
    };
  },

  setMode(app, mode) {
    app.mode = mode;
    app.card.dataset.mode = mode;
    app.iframe.style.height = mode === "inline" ? (app.sizes.at(-1) || 300) + "px" : "";
    app.bridge.setHostContext(host.context(mode));
  },

  // setTheme switches the host page and its apps to theme.
  setTheme(theme) {
    host.theme = theme;
    document.documentElement.dataset.theme = theme;
    for (const app of host.apps) app.render ? app.render() : app.bridge.setHostContext(host.context(app.mode));
  },
};

window.host = host;
