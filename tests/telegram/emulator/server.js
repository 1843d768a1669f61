// telegram-test-api (npm, pinned in package-lock.json) on 127.0.0.1:<port>, with only what it lacks for a
// python-telegram-bot bot modelled in front of it, each gap as the Bot API documents it
// (https://core.telegram.org/bots/api) and listed in tests/telegram/test_emulator.py's docstring.
// Usage: node server.js <port>; prints "ready <port>" once it listens.
'use strict';

const http = require('http');
const TelegramServer = require('telegram-test-api');

const port = Number(process.argv[2] || 0);
const emulator = new TelegramServer({ port, host: '127.0.0.1', storeTimeout: 3600 });
const inner = emulator.webServer; // the emulator's own express app: every route it has

// What the bot sees of itself (#getme: "Returns basic information about the bot in form of a User object";
// #user: is_bot is required; can_read_all_group_messages false = privacy mode on, BotFather's default).
// The emulator answers without is_bot, which python-telegram-bot cannot read.
const BOT = {
  id: 666, is_bot: true, first_name: 'Test First name', username: 'TestNameBot',
  can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false,
};
const chats = new Map(); // chat id -> the chat object of the updates that came from it
const admins = new Map(); // chat id -> [ChatMemberAdministrator]
const refused = new Map(); // chat id -> [status, description]: the bot removed from it, or muted there
const calls = []; // every Bot API call the bot made: {method, params, ok, result, start, end}
const slow = new Map(); // "chat:thread" -> ms a send there takes before it is answered (a large upload)

// #message: `date` is Unix time in seconds, `chat` the chat it was sent to, `from` the bot. The emulator
// answers sendMessage with milliseconds, every chat as a private one, no sender and string ids.
function asSent(message) {
  const out = { ...message, date: Math.floor(Number(message.date) / 1000), from: BOT };
  const id = Number(message.chat_id ?? (message.chat && message.chat.id));
  out.chat = chats.get(id) || { id, type: id > 0 ? 'private' : 'group', title: 'group' };
  for (const key of ['message_thread_id', 'reply_to_message_id']) {
    if (key in out) out[key] = Number(out[key]);
  }
  if (out.message_thread_id && out.chat.is_forum) out.is_topic_message = true;
  delete out.chat_id;
  delete out.botToken;
  return out;
}

const addBotMessage = emulator.addBotMessage.bind(emulator);
emulator.addBotMessage = (raw, token) => asSent(addBotMessage(raw, token));

// Updates the emulator cannot make (it knows `message` and `callback_query` only): stored as they are
// and handed out by its getUpdates like its own (#update: edited_message, my_chat_member …).
// Its callback queries lack `chat_instance` (#callbackquery: required, "uniquely corresponding to the chat
// to which the message with the callback button was sent"), which python-telegram-bot cannot do without.
const formatUpdate = TelegramServer.formatUpdate;
TelegramServer.formatUpdate = (update) => {
  if (update.raw) return { update_id: update.updateId, ...update.raw };
  const out = formatUpdate(update);
  const query = out.callback_query;
  if (query && query.chat_instance === undefined) query.chat_instance = `chat${query.message.chat.id}`;
  return out;
};

function readBody(req) {
  return new Promise((resolve) => {
    const parts = [];
    req.on('data', (part) => parts.push(part));
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      const type = String(req.headers['content-type'] || '');
      if (type.includes('application/json')) resolve(text ? JSON.parse(text) : {});
      else if (type.includes('multipart/form-data')) resolve({ multipart: true });
      else resolve(Object.fromEntries(new URLSearchParams(text)));
    });
  });
}

function json(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

// #getupdates: "offset: … An update is considered confirmed as soon as getUpdates is called with an offset
// higher than its update_id"; "timeout: Timeout in seconds for long polling". The emulator hands out each
// update once, unconfirmed (an answer lost on the way loses it), and answers at once (a polling bot would
// spin): the updates it hands out are kept here until confirmed, and a poll waits for the next one.
const unconfirmed = new Map(); // token -> updates handed out, not yet confirmed by an offset past them

function updatesFor(token, offset) {
  const kept = (unconfirmed.get(token) || []).filter((u) => !(offset > 0) || u.update_id >= offset);
  kept.push(...emulator.getUpdates(token));
  unconfirmed.set(token, kept);
  return kept;
}

function getUpdates(token, params, res) {
  const offset = Number(params.offset || 0);
  const seconds = Number(params.timeout || 0);
  const now = updatesFor(token, offset);
  if (now.length > 0 || !(seconds > 0)) return json(res, 200, { ok: true, result: now });
  const events = ['AddedUserMessage', 'AddedUserCommand', 'AddedUserCallbackQuery'];
  const stop = () => {
    clearTimeout(timer);
    events.forEach((event) => emulator.off(event, answer));
  };
  const answer = () => {
    stop();
    if (!res.writableEnded && !res.destroyed) json(res, 200, { ok: true, result: updatesFor(token, offset) });
  };
  const timer = setTimeout(answer, seconds * 1000);
  events.forEach((event) => emulator.on(event, answer));
  res.on('close', stop);
  return undefined;
}

function bot(method, params, token, res) {
  const chatId = Number(params.chat_id);
  const sending = ['sendMessage', 'sendPhoto', 'sendDocument', 'editMessageText', 'editMessageReplyMarkup'];
  if (sending.includes(method) && refused.has(chatId)) {
    const [status, description] = refused.get(chatId);
    return json(res, status, { ok: false, error_code: status, description });
  }
  switch (method) {
    case 'getMe': return json(res, 200, { ok: true, result: BOT });
    case 'getUpdates': return getUpdates(token, params, res);
    // #setmycommands, #deletemycommands: "Returns True on success"; #getwebhookinfo: an empty url when none
    case 'setMyCommands': case 'deleteMyCommands': case 'sendChatAction':
      return json(res, 200, { ok: true, result: true });
    case 'getMyCommands': return json(res, 200, { ok: true, result: [] });
    case 'getWebhookInfo':
      return json(res, 200, { ok: true, result: { url: '', has_custom_certificate: false, pending_update_count: 0 } });
    case 'getChatAdministrators': return json(res, 200, { ok: true, result: admins.get(chatId) || [] });
    case 'editMessageText': case 'editMessageReplyMarkup': {
      // #editmessagetext: "the edited Message is returned"; the emulator answers null
      emulator[method](params);
      const stored = emulator.storage.botMessages.find((u) => String(u.messageId) === String(params.message_id)
        && String(u.message.chat_id) === String(params.chat_id));
      if (!stored) return json(res, 400, { ok: false, error_code: 400, description: 'Bad Request: message to edit not found' });
      return json(res, 200, { ok: true, result: asSent({ ...stored.message, message_id: stored.messageId, date: stored.time }) });
    }
    default: return null; // the emulator's own (sendMessage, answerCallbackQuery, deleteMessage …) or its refusal
  }
}

const server = http.createServer(async (req, res) => {
  const body = await readBody(req);
  req.body = body;
  req._body = true; // the emulator's body parsers take this as read
  const url = new URL(req.url, 'http://x');
  const route = url.pathname.match(/^\/bot([^/]+)\/([A-Za-z]+)$/);
  if (route) {
    const params = { ...Object.fromEntries(url.searchParams), ...body };
    if (route[2] !== 'getUpdates') {
      const call = { method: route[2], params, ok: false, result: null, start: Date.now(), end: null };
      calls.push(call);
      const end = res.end.bind(res);
      res.end = (chunk, ...rest) => { // what the bot was answered (a sent message's id)
        try { call.result = JSON.parse(String(chunk)).result ?? null; } catch (e) { call.result = null; }
        return end(chunk, ...rest);
      };
      res.on('finish', () => { call.ok = res.statusCode === 200; call.end = Date.now(); });
      const wait = slow.get(`${params.chat_id}:${params.message_thread_id || ''}`);
      if (wait && route[2].startsWith('send')) await new Promise((done) => { setTimeout(done, wait); });
    }
    if (bot(route[2], params, route[1], res) !== null) return;
  } else if (url.pathname === '/_emul/update') { // an update the emulator cannot make
    emulator.storage.userMessages.push({ ...emulator.getCommonFields(body.botToken), raw: body.update });
    emulator.updateId++;
    emulator.emit('AddedUserMessage');
    return json(res, 200, { ok: true });
  } else if (url.pathname === '/_emul/admins') {
    admins.set(Number(body.chat_id), body.admins);
    return json(res, 200, { ok: true });
  } else if (url.pathname === '/_emul/refuse') {
    refused.set(Number(body.chat_id), [body.status, body.description]);
    return json(res, 200, { ok: true });
  } else if (url.pathname === '/_emul/slow') {
    slow.set(`${body.chat_id}:${body.thread || ''}`, Number(body.ms));
    return json(res, 200, { ok: true });
  } else if (url.pathname === '/_emul/calls') {
    return json(res, 200, { ok: true, result: calls.slice(Number(url.searchParams.get('since') || 0)) });
  } else if (['/sendMessage', '/sendCommand', '/sendCallback'].includes(url.pathname)) {
    const chat = body.chat || (body.message && body.message.chat);
    if (chat) chats.set(Number(chat.id), chat);
  }
  return inner(req, res);
});

server.listen(port, '127.0.0.1', () => {
  emulator.started = true;
  process.stdout.write(`ready ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
