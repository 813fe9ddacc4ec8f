/**
 * Classes for an item of a long list of cards below the first screen (home's Latest News, a
 * category's stories after the first): the item is laid out, painted and its picture asked for
 * only once it comes near the screen (`content-visibility: auto`: about half a screen away in
 * Chromium), not on the first frame, where on a phone the next three or four cards' photos would
 * share the line with the page's largest picture and the scripts (a lazy picture alone is asked
 * for 1250 px ahead). Each keeps a card's height (24rem, a card at 375 px) until drawn and the
 * height it last had after, so the page does not jump as a reader scrolls; its width is the grid
 * column's, drawn or not. Its content stays in the accessibility tree, findable and focusable. A
 * jump straight to a card far below (focus, a link to it) draws the cards around it for the first
 * time, and those above it may move it by their difference from 24rem (a layout shift of 0.02-0.03
 * at 375 px in the e2e site, none when the reader has scrolled past them before).
 */
export const RENDERED_WHEN_NEAR = "[contain-intrinsic-height:auto_24rem] [content-visibility:auto]";
