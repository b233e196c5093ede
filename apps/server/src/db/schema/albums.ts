/** The albums' tables custom code reads by name (albums/). */
import { AlbumBook, AlbumBookVersion, AlbumOrder, AlbumPhoto, AlbumPriceConfig, AlbumSpec, AlbumTask, AlbumTemplate } from '@campus/contract';
import { builtFamilyTable } from './resources.js';

export const albumSpecs = builtFamilyTable(AlbumSpec.name);
export const albumPriceConfigs = builtFamilyTable(AlbumPriceConfig.name);
export const albumTemplates = builtFamilyTable(AlbumTemplate.name);
export const albumTasks = builtFamilyTable(AlbumTask.name);
export const albumPhotos = builtFamilyTable(AlbumPhoto.name);
export const albumBooks = builtFamilyTable(AlbumBook.name);
export const albumOrders = builtFamilyTable(AlbumOrder.name);
export const albumBookVersions = builtFamilyTable(AlbumBookVersion.name);
