import { encodePng } from './png.ts';

/** One picture of the stand-in media library. */
export type StandInAsset = {
  id: string;
  name: string;
  folder: string;
  format: 'png' | 'svg';
  width: number;
  height: number;
  createdAt: string;
};

type Rgb = readonly [number, number, number];

const gradients: { name: string; from: Rgb; to: Rgb }[] = [
  { name: 'Dunes at dusk', from: [250, 190, 110], to: [120, 60, 140] },
  { name: 'Glacier lake', from: [200, 240, 255], to: [20, 90, 160] },
  { name: 'Spring meadow', from: [230, 250, 160], to: [40, 140, 70] },
  { name: 'Harbour night', from: [40, 50, 90], to: [250, 210, 120] },
  { name: 'Coral reef', from: [255, 150, 140], to: [30, 170, 180] },
];

const shapes: { name: string; fill: string; shape: 'circle' | 'square' | 'triangle' }[] = [
  { name: 'Round badge', fill: '#e4572e', shape: 'circle' },
  { name: 'Square mark', fill: '#17bebb', shape: 'square' },
  { name: 'Arrow logo', fill: '#76b041', shape: 'triangle' },
];

export const standInAssets: readonly StandInAsset[] = [
  ...gradients.map((g, i) => ({
    id: `photo-${i + 1}`,
    name: g.name,
    folder: 'photos',
    format: 'png' as const,
    width: 640,
    height: 400,
    createdAt: `2026-0${i + 1}-15T09:00:00Z`,
  })),
  ...shapes.map((s, i) => ({
    id: `logo-${i + 1}`,
    name: s.name,
    folder: 'logos',
    format: 'svg' as const,
    width: 256,
    height: 256,
    createdAt: `2026-0${i + 6}-01T12:00:00Z`,
  })),
];

const mix = (from: Rgb, to: Rgb, t: number): Rgb =>
  [0, 1, 2].map((c) => Math.round(from[c]! + (to[c]! - from[c]!) * t)) as unknown as Rgb;

/** The picture's bytes: a diagonal gradient (PNG) or a flat shape (SVG); a thumbnail is a quarter of the size. */
export const renderAsset = (
  asset: StandInAsset,
  size: 'thumbnail' | 'original',
): { contentType: string; body: Buffer } => {
  const scale = size === 'thumbnail' ? 4 : 1;
  const width = Math.round(asset.width / scale);
  const height = Math.round(asset.height / scale);
  const index = Number(asset.id.split('-')[1]) - 1;
  if (asset.format === 'png') {
    const { from, to } = gradients[index]!;
    const body = encodePng(width, height, (x, y) => mix(from, to, (x / width + y / height) / 2));
    return { contentType: 'image/png', body };
  }
  const { fill, shape } = shapes[index]!;
  const figure = {
    circle: '<circle cx="128" cy="128" r="96"/>',
    square: '<rect x="40" y="40" width="176" height="176" rx="24"/>',
    triangle: '<path d="M128 32 224 208H32Z"/>',
  }[shape];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 256 256"><rect width="256" height="256" fill="#f4f1ea"/><g fill="${fill}">${figure}</g></svg>`;
  return { contentType: 'image/svg+xml', body: Buffer.from(svg) };
};

/** One product row of the stand-in catalogue. */
export type StandInProduct = {
  sku: string;
  name: string;
  category: string;
  price: number;
  inStock: boolean;
  launched: string;
};

const products = ['Mug', 'Cap', 'Tote bag', 'Notebook', 'Pen', 'Poster', 'Sticker sheet', 'Hoodie'];
const categories = ['Kitchen', 'Apparel', 'Stationery', 'Decor'];

export const standInProducts: readonly StandInProduct[] = Array.from({ length: 24 }, (_, i) => ({
  sku: `P-${String(i + 1).padStart(3, '0')}`,
  name: `${products[i % products.length]} ${['classic', 'eco', 'deluxe'][Math.floor(i / products.length)]}`,
  category: categories[i % categories.length]!,
  price: Math.round((4.5 + ((i * 7) % 23) * 1.25) * 100) / 100,
  inStock: i % 5 !== 3,
  launched: `2025-${String((i % 12) + 1).padStart(2, '0')}-01`,
}));

export const standInSchema = {
  fields: [
    { name: 'sku', type: 'string' },
    { name: 'name', type: 'string' },
    { name: 'category', type: 'string' },
    { name: 'price', type: 'number' },
    { name: 'inStock', type: 'boolean' },
    { name: 'launched', type: 'date' },
  ],
} as const;
