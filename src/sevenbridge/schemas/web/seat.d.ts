// The seat protocol of a sevenbridge web table (generated from its JSON Schemas).

export type SeatView = {
  type: "view";
  table: string;
  seat: number;
  epoch: string;
  version: number;
  ply: number;
  deal: number;
  title: string;
  deal_word: string;
  hand_head: string;
  rules: string;
  rules_url: string;
  lang: "en" | "ja";
  names: Array<string>;
  humans: Array<boolean>;
  status: string;
  your_turn: boolean;
  svg: string;
  svg_narrow: string;
  hand: Array<{
    card: string;
    label: string;
    name: string;
    svg: string;
  }>;
  kinds: Array<[string, string]>;
  choosable: Array<string>;
  moves: Array<{
    index: number;
    kind: string;
    label: string;
    short: string;
    cards: Array<string>;
    notation: string;
    target?: number;
  }>;
  log: Array<string>;
  events: Array<{
    kind: "draw" | "discard" | "pass" | "chi" | "pon" | "chow" | "pung" | "kong" | "lay_down" | "lay_off" | "mahjong" | "answer" | "claim_waits" | "claim_stands" | "claim_overridden" | "window" | "reshuffle" | "end";
    seat: number | null;
    cards: Array<string | null>;
    meld: number | null;
    seats: Array<number>;
    scores: Array<number>;
    text: string;
  }>;
  practice: boolean;
  can_undo: boolean;
  result: {
    reason: string;
    notes: Array<string>;
    rows: Array<Record<string, unknown>>;
    score_label: string;
    lowest_wins: boolean;
    title: string;
    hand_word: string;
    deal: number;
    totals: Array<number>;
    over: boolean;
    winners: Array<number>;
  } | null;
  clock: number | null;
  notice: string | null;
  again: string | null;
  observation: Record<string, unknown>;
};

export type SeatMove = {
  token: string;
  index?: number;
  ply?: number;
  kind?: string;
  cards?: Array<string>;
  target?: number;
};

export type SeatAnswer = {
  ok: boolean;
  message?: string;
  view?: {
    type: "view";
    table: string;
    seat: number;
    epoch: string;
    version: number;
    ply: number;
    deal: number;
    title: string;
    deal_word: string;
    hand_head: string;
    rules: string;
    rules_url: string;
    lang: "en" | "ja";
    names: Array<string>;
    humans: Array<boolean>;
    status: string;
    your_turn: boolean;
    svg: string;
    svg_narrow: string;
    hand: Array<{
      card: string;
      label: string;
      name: string;
      svg: string;
    }>;
    kinds: Array<[string, string]>;
    choosable: Array<string>;
    moves: Array<{
      index: number;
      kind: string;
      label: string;
      short: string;
      cards: Array<string>;
      notation: string;
      target?: number;
    }>;
    log: Array<string>;
    events: Array<{
      kind: "draw" | "discard" | "pass" | "chi" | "pon" | "chow" | "pung" | "kong" | "lay_down" | "lay_off" | "mahjong" | "answer" | "claim_waits" | "claim_stands" | "claim_overridden" | "window" | "reshuffle" | "end";
      seat: number | null;
      cards: Array<string | null>;
      meld: number | null;
      seats: Array<number>;
      scores: Array<number>;
      text: string;
    }>;
    practice: boolean;
    can_undo: boolean;
    result: {
      reason: string;
      notes: Array<string>;
      rows: Array<Record<string, unknown>>;
      score_label: string;
      lowest_wins: boolean;
      title: string;
      hand_word: string;
      deal: number;
      totals: Array<number>;
      over: boolean;
      winners: Array<number>;
    } | null;
    clock: number | null;
    notice: string | null;
    again: string | null;
    observation: Record<string, unknown>;
  } | null;
};

export type SeatOpen = {
  game?: string;
  rules?: string;
  players?: number | string;
  deals?: number | string | null;
  seed?: number | string | null;
  seats: Array<string>;
  practice?: boolean;
  pause?: number | string | null;
};

export type SeatOpened = {
  ok: boolean;
  message?: string;
  table?: string;
  links?: string;
  links_address?: string;
  seats?: Array<{
    seat: number;
    url: string;
    address: string;
  }>;
};
