import { Container, Sprite, Text, Texture } from 'pixi.js';

/** Look of a `TextPanel`. */
export interface TextPanelStyle {
  fontFamily: string;
  fontSize: number;
  color: number;
  background: number;
  backgroundAlpha: number;
  padding: number;
}

/** The default look of text panels: monospace 13 px, white on 75 % black. */
export const DEFAULT_TEXT_PANEL_STYLE: Readonly<TextPanelStyle> = Object.freeze({
  fontFamily: 'monospace',
  fontSize: 13,
  color: 0xffffff,
  background: 0x000000,
  backgroundAlpha: 0.75,
  padding: 6,
});

/**
 * A block of text on a dark backing, in screen space: the over-budget badge, the help overlay and
 * the selection readout. The text is re-rendered only when `setText` gets a different string.
 *
 * @example
 * const badge = new TextPanel(style);
 * app.stage.addChild(badge.root);
 * badge.setText('over budget: ai');
 */
export class TextPanel {
  public readonly root = new Container();
  public readonly text: Text;
  private readonly bg = new Sprite(Texture.WHITE);

  private readonly style: Readonly<TextPanelStyle>;

  public constructor(options: Partial<TextPanelStyle> = {}) {
    const style: TextPanelStyle = { ...DEFAULT_TEXT_PANEL_STYLE, ...options };
    this.style = Object.freeze(style);
    this.text = new Text({
      text: '',
      style: {
        fontFamily: style.fontFamily,
        fontSize: style.fontSize,
        fill: style.color,
        lineHeight: style.fontSize * 1.3,
      },
    });
    this.bg.tint = style.background;
    this.bg.alpha = style.backgroundAlpha;
    this.root.eventMode = 'none';
    this.root.visible = false;
    this.root.addChild(this.bg, this.text);
  }

  /** The string shown. */
  public get value(): string {
    return this.text.text;
  }

  /** Shows `text` (hidden when empty). */
  public setText(text: string): void {
    if (text !== this.text.text) {
      this.text.text = text;
      const pad = this.style.padding;
      this.text.position.set(pad, pad);
      this.bg.width = this.text.width + pad * 2;
      this.bg.height = this.text.height + pad * 2;
    }
    this.root.visible = text.length > 0;
  }

  /** Width and height of the block, pixels. */
  public get width(): number {
    return this.bg.width;
  }

  public get height(): number {
    return this.bg.height;
  }

  /** Sets the backing colour (e.g. red for a warning). */
  public setBackground(color: number, alpha: number): void {
    this.bg.tint = color;
    this.bg.alpha = alpha;
  }
}
